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

/** A foreign key refused the change (a row still referenced, or a reference to nothing). */
export const isForeignKeyViolation = (error: unknown) => sqlState(error) === '23503';
