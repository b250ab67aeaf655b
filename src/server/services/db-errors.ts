/** The SQLSTATE of a database error, looked for through wrapped causes (drizzle wraps driver errors). */
function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** A unique index refused the row (two requests racing for the same name or application). */
export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

/** The name of the constraint a database error names (which unique index refused the row), looked for through wrapped causes. */
export function constraintOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const constraint = (e as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
  }
  return undefined;
}

/** A foreign key refused the change (a row still referenced, or a reference to nothing). */
export const isForeignKeyViolation = (error: unknown) => sqlState(error) === '23503';

/**
 * "No space left on device", however it reached us: PostgreSQL's disk_full (53100, from a server or
 * from PGlite, whose postgres turns the file system's ENOSPC into it), Node's ENOSPC or EDQUOT from
 * a file we wrote, or the Emscripten file system's ErrnoError, which carries only a number (51 is
 * its ENOSPC) and is what PGlite throws when it cannot write its files outside a statement, as
 * when it opens.
 */
export function isDiskFull(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, errno, name } = e as { code?: unknown; errno?: unknown; name?: unknown };
    if (code === '53100' || code === 'ENOSPC' || code === 'EDQUOT') return true;
    if (name === 'ErrnoError' && errno === EMSCRIPTEN_ENOSPC) return true;
  }
  return false;
}
const EMSCRIPTEN_ENOSPC = 51;

/**
 * The database ran out of something other than disk (insufficient_resources, out_of_memory): the
 * server's trouble, not the request's, and likely to pass, so a 503 to try again rather than a 500.
 */
export const isOutOfResources = (error: unknown) => {
  const state = sqlState(error);
  return state === '53000' || state === '53200';
};
