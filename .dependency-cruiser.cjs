/**
 * Import cycles, type imports included (ESLint's import-x/no-cycle skips those): `npm run lint`.
 * The folders' own boundaries are ESLint's (eslint.config.js, `import-x/no-restricted-paths`).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Two modules that import each other, even for types only: one of them owns the other’s concept.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)' },
    // Type-only imports count: a cycle of types is a cycle of concepts.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.astro'] },
  },
};
