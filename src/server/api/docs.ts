import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';

/** The page's only style; it loads nothing else and runs no script. */
const STYLE = `
      body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; background: #0b0d17; color: #e6e8f2; }
      a { color: #8ab4ff; } code { background: #1b1f33; padding: 0 .25rem; border-radius: .25rem; }
      section { border: 1px solid #2a2f4a; border-radius: .5rem; margin: .75rem 0; padding: .5rem 1rem; }
      .m { font-weight: 700; text-transform: uppercase; margin-right: .5rem; color: #ffb454; }
    `;

/**
 * The docs page's Content-Security-Policy: nothing may load or run but its own style, allowed by
 * its hash, so no nonce is needed and the page may be held and served again as it is.
 */
export const API_DOCS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string }>;
}
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  format?: string;
  maxLength?: number;
  minLength?: number;
  $ref?: string;
}
interface Document {
  info: { title: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
}

function fields(schema: Schema | undefined) {
  if (!schema?.properties) return '';
  const rows = Object.entries(schema.properties).map(([name, s]) => {
    const type = [s.type, s.format, s.enum ? s.enum.join(' | ') : undefined].filter(Boolean).join(', ');
    const bounds = [s.minLength !== undefined ? `від ${s.minLength}` : '', s.maxLength !== undefined ? `до ${s.maxLength}` : '']
      .filter(Boolean)
      .join(' ');
    const required = schema.required?.includes(name) ? ' (обовʼязкове)' : '';
    return html`<li><code>${name}</code>: ${type}${bounds ? ` ${bounds}` : ''}${required}</li>`;
  });
  return html`<ul>${rows}</ul>`;
}

/** A readable, script-free reference page for the OpenAPI document, sent with API_DOCS_CSP. */
export function renderApiDocs(document: object) {
  // The generator's types are wider than what this page reads; these are the parts it shows.
  const doc = document as Document;
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  const tags = [...new Set(operations.map((o) => o.op.tags?.[0] ?? 'Інше'))];
  return html`<!doctype html>
<html lang="uk">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${doc.info.title}</title>
    <style>${raw(STYLE)}</style>
  </head>
  <body>
    <h1>${doc.info.title}</h1>
    <p>${doc.info.description ?? ''} Машинний опис: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
    ${tags.map(
      (tag) => html`<h2>${tag}</h2>
        ${operations
          .filter((o) => (o.op.tags?.[0] ?? 'Інше') === tag)
          .map(
            ({ path, method, op }) => html`<section>
              <h3><span class="m">${method}</span><code>${path}</code>${op.security?.length ? ' 🔒' : ''}</h3>
              <p>${op.summary ?? ''}</p>
              ${op.parameters?.length
                ? html`<p>Параметри:</p><ul>${op.parameters.map((p) => html`<li><code>${p.name}</code> (${p.in})${p.required ? ' обовʼязковий' : ''}</li>`)}</ul>`
                : ''}
              ${op.requestBody ? html`<p>Тіло (JSON):</p>${fields(op.requestBody.content?.['application/json']?.schema)}` : ''}
              <p>Відповіді: ${Object.entries(op.responses ?? {}).map(([code, r]) => html`<code>${code}</code> ${r.description ?? ''}; `)}</p>
            </section>`,
          )}`,
    )}
  </body>
</html>`;
}
