import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegration } from 'astro';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.webmanifest', '.txt', '.xml', '.html']);
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (COMPRESSIBLE.has(extname(entry.name))) yield path;
  }
}

/**
 * Writes a `.br` and a `.gz` copy beside every text file of the browser build, at the highest
 * settings since it happens once; scripts/serve.ts sends them to browsers that take them.
 */
export function precompress(): AstroIntegration {
  let clientDir = '';
  return {
    name: 'kiberarena:precompress',
    hooks: {
      'astro:config:done': ({ config }) => {
        clientDir = fileURLToPath(config.build.client);
      },
      'astro:build:done': async ({ logger }) => {
        let files = 0;
        let before = 0;
        let after = 0;
        for await (const path of filesUnder(clientDir)) {
          if ((await stat(path)).size < MIN_BYTES) continue;
          const source = await readFile(path);
          const br = await brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } });
          await writeFile(`${path}.br`, br);
          await writeFile(`${path}.gz`, await gzipped(source, { level: constants.Z_BEST_COMPRESSION }));
          files++;
          before += source.length;
          after += br.length;
        }
        logger.info(`${files} files compressed: ${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB (brotli)`);
      },
    },
  };
}
