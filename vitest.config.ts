import { defineConfig } from 'vitest/config';

const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // Two cores on CI: never more than two test workers.
    maxWorkers: 2,
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      // Astro components rendered on the server (they need Astro's Vite plugins: their own config).
      'tests/components/vitest.config.ts',
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Every API test file runs on embedded PGlite, and again on PostgreSQL when one is given.
          env: { TEST_DB: 'pglite' },
        },
      },
      ...(postgres
        ? [
            {
              test: {
                name: 'api-postgres',
                include: ['tests/api/**/*.test.ts'],
                environment: 'node',
                testTimeout: 30_000,
                hookTimeout: 60_000,
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
