import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The second entry's file in the build's server folder (`<outDir>/server/node-entry.mjs`). */
export const NODE_ENTRY_FILE = 'node-entry.mjs';

/**
 * Adds src/server/node-entry.ts to the server build as an entry of its own, beside the adapter's
 * `entry.mjs`. Both come out of one build, so the modules they share (the runtime, the app, the
 * live streams, the answer cache) are one chunk, loaded once: the event streams and held answers
 * scripts/serve.ts takes from it are the ones the pages and the API publish to and fill, not a
 * second copy.
 */
export function nodeEntry(): Plugin {
  const source = fileURLToPath(new URL('../src/server/node-entry.ts', import.meta.url));
  return {
    name: 'kiberarena:node-entry',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    options(options) {
      const { input } = options;
      const named =
        typeof input === 'string' ? { index: input } : Array.isArray(input) ? Object.fromEntries(input.map((file, n) => [`input${n}`, file])) : { ...input };
      return { ...options, input: { ...named, [NODE_ENTRY_FILE.replace(/\.mjs$/, '')]: source } };
    },
  };
}
