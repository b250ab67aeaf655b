import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Routes validate, authorize and call a service (src/server/api/README.md). The lint boundary
// catches imports of src/server/db; this also catches the query builder itself and the rest.
const dir = 'src/server/api/routes';
const routes = readdirSync(dir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, source: readFileSync(join(dir, name), 'utf8') }));
const imports = (source: string) => [...source.matchAll(/^import[^;]*?from '([^']+)';/gms)].map((match) => match[1]!);

describe('route files', () => {
  it('are all read', () => {
    expect(routes.length).toBeGreaterThan(10);
  });

  it.each(routes)('$name does not touch the database (no db/ or drizzle-orm import)', ({ source }) => {
    expect(imports(source).filter((path) => path.startsWith('drizzle-orm') || /(^|\/)db\//.test(path))).toEqual([]);
  });

  it.each(routes)('$name imports no other route (shared rules live beside app.ts or in services)', ({ source }) => {
    expect(imports(source).filter((path) => path.startsWith('./'))).toEqual([]);
  });

  it.each(routes)('$name names a guard once, through userRoute/adminRoute, never with its own security or middleware', ({ source }) => {
    expect(source).not.toMatch(/\b(security|middleware):/);
  });
});
