/*
 * The most characters each text field of the API takes. The schemas beside this module declare
 * `.max(X_MAX)` and the forms show `limit={X_MAX}`, so a limit changes in one place. It is its own
 * module without zod on purpose, and the limits are plain constants (an object's properties are
 * not): an island that reads a limit from a schema, or a schema whose bound the bundler cannot
 * inline, ships the schemas and zod to the browser (tests/e2e/bundle.spec.ts).
 * A stat field's name and an achievement's condition keep their limits in lib/domain/stat-fields.ts.
 */

export const USERNAME_MAX = 32;
/** The longest email address (RFC 5321), and so the longest "nickname or email" too. */
export const EMAIL_MAX = 254;
export const PASSWORD_MAX = 128;
export const TOURNAMENT_TITLE_MAX = 120;
export const TOURNAMENT_DESCRIPTION_MAX = 5000;
/** A picture address of a game or tournament. */
export const IMAGE_ADDRESS_MAX = 2000;
export const GAME_NAME_MAX = 60;
export const STAT_DISPLAY_NAME_MAX = 60;
/** A stat field's or an achievement's description. */
export const STATS_DESCRIPTION_MAX = 300;
/** An emoji icon of a stat field or achievement. */
export const ICON_MAX = 16;
export const ACHIEVEMENT_NAME_MAX = 80;
/** Why a player disputes the opponent's reported score (issue 22). */
export const DISPUTE_REASON_MAX = 500;

/** The largest picture an upload may send (an avatar), in bytes. */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

/** A match's screenshots (issue 58): pictures one upload may send, the largest of each in bytes, and the most a match holds. */
export const EVIDENCE_FILES_MAX = 4;
export const EVIDENCE_FILE_BYTES = 5 * 1024 * 1024;
export const EVIDENCE_PER_MATCH_MAX = 12;
