/** Events that come in a burst (a result resets later matches, a stage draws many) are read once, this long after the last. */
export const SETTLE_MS = 150;

/**
 * Viewers read what an event changed at random moments over this long, not all at once: the
 * thousands watching a final then ask the server (or nginx) in a stream instead of a wall.
 */
export const JITTER_MS = 1000;
