/**
 * Years a date may have, whether someone typed it or the site computed it from one typed (a
 * round's time from a start). Before 1900 nothing on the site happened, and years 0–99 do not
 * survive the trip through the database drivers (they come back as 1900–1999); after 9999 ISO 8601
 * needs a sign, which PostgreSQL does not read.
 */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;

/**
 * Whether a moment computed from a valid one (a start plus rounds) fell past the last year the site
 * keeps, by UTC as it is stored. Such times only grow from their input, so the upper bound is the
 * one they can cross.
 */
export const pastLastYear = (at: Date): boolean => !(at.getUTCFullYear() <= MAX_YEAR);
