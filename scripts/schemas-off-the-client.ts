import type { Plugin } from 'vite';

/** The few fields of an ESTree node this plugin reads. */
interface AstNode {
  type: string;
  start: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';

/** Start offsets of the calls in `node`, not looking into functions (their calls run later, if at all). */
function collectCalls(node: unknown, calls: number[]): void {
  if (Array.isArray(node)) return node.forEach((child) => collectCalls(child, calls));
  if (!isNode(node) || /Function/.test(node.type)) return;
  if (node.type === 'CallExpression') calls.push(node.start);
  for (const [key, child] of Object.entries(node)) if (key !== 'parent' && typeof child === 'object') collectCalls(child, calls);
}

const API_MODULE = /\/src\/lib\/api\/[^/]+\.ts$/;

/**
 * Islands call the API through `src/lib/api`, whose modules also define the zod schemas the server
 * validates with. No island validates with them, but a bundler keeps every call it cannot prove
 * free of side effects, so all of zod (~25 KB compressed) went to every page. In the browser build
 * only, the calls that make up a top-level definition of those modules (`z.object(…)`,
 * `x.optional()`, `t('…')`, but nothing inside a function) are marked pure: a schema nothing in the
 * browser uses is dropped, and zod with it. The server build is untouched (it needs
 * `z.config(…)` to run). `npm run bench:pages` shows the weight.
 */
export function schemasOffTheClient(): Plugin {
  return {
    name: 'kiberarena:schemas-off-the-client',
    enforce: 'post',
    applyToEnvironment: (environment) => environment.name === 'client',
    transform(code, id) {
      if (!API_MODULE.test(id.split('?')[0] ?? '')) return;
      const calls: number[] = [];
      for (const statement of this.parse(code).body as unknown as AstNode[]) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (isNode(declaration) && declaration.type === 'VariableDeclaration') collectCalls(declaration.declarations, calls);
      }
      if (calls.length === 0) return;
      let out = code;
      for (const start of [...new Set(calls)].sort((a, b) => b - a)) out = `${out.slice(0, start)}/* @__PURE__ */ ${out.slice(start)}`;
      return { code: out, map: null };
    },
  };
}
