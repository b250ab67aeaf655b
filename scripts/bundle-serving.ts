import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Where the serving front's files go, inside the build (`npm start` runs `serve.mjs` from there). */
export const SERVING_DIR = 'serving';

/** Writes `serve.mjs` into `dir`, which must be inside the project (its packages are found from there). */
export async function bundleServingInto(dir: string): Promise<void> {
  // Loaded here: `npm start` reads SERVING_DIR from this module without building.
  const { build } = await import('esbuild');
  const root = fileURLToPath(new URL('..', import.meta.url));
  await build({
    entryPoints: { serve: join(root, 'scripts/serve.ts') },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    logLevel: 'warning',
  });
}

/**
 * Bundles the server (scripts/serve.ts) into plain JavaScript beside the build:
 * `<outDir>/serving/serve.mjs`. Node runs TypeScript by loading a WebAssembly compiler into the
 * process that imports a `.ts` file, and keeps it: about 15 MB of resident memory that the
 * server's budget need not spend. Packages stay imports, found in node_modules as before;
 * `node scripts/serve.ts` still runs from the sources.
 */
export function bundleServing(): AstroIntegration {
  let outDir = '';
  return {
    name: 'kiberarena:bundle-serving',
    hooks: {
      'astro:config:done': ({ config }) => {
        outDir = fileURLToPath(config.outDir);
      },
      'astro:build:done': async ({ logger }) => {
        await bundleServingInto(join(outDir, SERVING_DIR));
        logger.info(`serve.mjs in ${join(outDir, SERVING_DIR)}`);
      },
    },
  };
}
