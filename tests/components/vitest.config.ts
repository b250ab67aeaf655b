import { fileURLToPath } from 'node:url';
import { getViteConfig } from 'astro/config';

/**
 * Astro components rendered by the Container API need Astro's Vite plugins, which the unit
 * project's plain config lacks. Run: `npx vitest run --config tests/components/vitest.config.ts`.
 */
export default getViteConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'components',
    include: ['tests/components/**/*.test.ts'],
    environment: 'node',
    maxWorkers: 1,
  },
});
