import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import astro from 'eslint-plugin-astro';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Island features, read from the folder so that a new feature is fenced in without editing this file.
const features = readdirSync('src/islands', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Which folder may not import which (bulletproof-react's boundaries; DESIGN.md "Layout"). */
const boundaries = [
  ...features.map((feature) => ({
    target: `./src/islands/${feature}`,
    from: './src/islands',
    except: [`./${feature}`],
    message: 'An island feature does not import another feature: shared UI goes to src/components, shared rules to src/lib.',
  })),
  {
    target: ['./src/islands', './src/lib', './src/components'],
    from: './src/server',
    message: 'Code that can reach the browser never imports src/server (pages get the API through Astro.locals.api).',
  },
  {
    target: './src/lib/domain',
    from: './src/lib/api',
    message: 'Domain rules are pure: src/lib/api derives from src/lib/domain, never the other way round.',
  },
  {
    target: './src/server/api/routes',
    from: './src/server/db',
    message: 'Routes validate, authorize and call a service; only services touch the database.',
  },
  {
    target: ['./src/server/services', './src/server/db', './src/server/mail'],
    from: './src/server/api',
    message: 'Services answer with results and refusal reasons; only the API turns them into HTTP (fail, statuses, headers).',
  },
  {
    target: './src/server/api/routes',
    from: './src/server/api/routes',
    message: 'A route does not import another route: what two share lives in a service or beside the app (openapi.ts, context.ts).',
  },
  {
    target: './src/components',
    from: './src/islands',
    message: 'Shared UI does not reach into an island feature: what both draw lives in src/components, and the island imports it.',
  },
  {
    target: './src',
    from: './scripts',
    message: 'The app never imports the scripts that start, build or seed it: what both need lives in src.',
  },
  {
    target: './src/server/serving',
    from: './src/server/api',
    message: 'The serving layer knows no route: a route says what it is where it is defined, and the app tells the rest.',
  },
  {
    target: './src/server/api',
    from: './src/server/serving',
    message: 'The API does not reach into the serving layer: what both need (how a request arrived) lives in src/server.',
  },
];

export default defineConfig(
  { ignores: ['dist/', 'dist-*/', '.e2e-data/', '.astro/', 'data/', 'node_modules/', 'test-results/', 'playwright-report/', 'bench/results/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  astro.configs.recommended,
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx,astro}'],
    plugins: { 'import-x': importX },
    settings: {
      // Files whose imports no-cycle follows; .astro files are leaves (nothing imports a page back).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Every import between our files names its file (.ts/.tsx/.astro), so Node's resolution finds it.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.astro'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      // Only our own files can close a cycle; node_modules is not walked, which keeps lint fast.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The layout's islands and every module they load run on every page, and the tournament list is
    // the island a guest's /games/{id} loads: their texts come from the narrow catalogs
    // (i18n/common.ts, notifications.ts, tournament-list.ts), never the whole one (bundle.spec.ts
    // measures the result). A dynamic import() is how such a module reaches a wider one on demand.
    files: [
      'src/islands/nav/**',
      'src/islands/tournaments/{TournamentList,TournamentCard,preferences}.{ts,tsx}',
      'src/islands/notifications/**',
      'src/islands/home/ParticlesBackground.tsx',
      'src/components/{Notice,ShowMore,StatusBadge,UserAvatar}.tsx',
      'src/components/fallback-image.ts',
      'src/lib/api/{assets,auth,client,limits,my-applications,notifications,paging,tournament-list}.ts',
      'src/lib/domain/{address,application-rules,game-image,match-day,names,notification-action,registration,team,tournament-dates,tournament-list,tournament-status}.ts',
      'src/lib/hooks/{hydration,my-applications,pages}.ts',
      'src/lib/stores/**',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/i18n/index.ts'],
              allowTypeImports: true,
              message:
                "Every page (or a guest's game page) loads this module: take `t` from i18n/common.ts (notifications.ts for the bell, tournament-list.ts for the list), not the whole catalog.",
            },
            {
              group: ['**/api/tournaments.ts'],
              allowTypeImports: true,
              message: 'Its input checks load the whole catalog: read the list through lib/api/tournament-list.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // A service publishes its tournament's or user's event next to its write, after the commit and
    // only when the write happened (`publishing` in services/live/live.ts); a route that published
    // too would tell of refused writes, or twice.
    files: ['src/server/api/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/services/live/live.ts'],
              importNames: ['publishTournament', 'publishUser', 'publishUsers', 'publishing'],
              message: 'Services publish their own live events after their write commits: call the service, do not publish from the API.',
            },
          ],
        },
      ],
    },
  },
  { languageOptions: { globals: { ...globals.node, ...globals.browser } } },
);
