import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';

/** The browser build the test server serves (playwright.config.ts starts it from BUILD_DIR). */
const CLIENT_SCRIPTS = join(process.env.BUILD_DIR ?? 'dist', 'client', '_astro');

test('no browser script carries zod: the API schemas stay on the server (about 21 KB compressed)', async () => {
  const scripts = (await readdir(CLIENT_SCRIPTS)).filter((name) => name.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  const carrying: string[] = [];
  for (const name of scripts) {
    if ((await readFile(join(CLIENT_SCRIPTS, name), 'utf8')).includes('ZodError')) carrying.push(name);
  }
  expect(carrying).toEqual([]);
});
