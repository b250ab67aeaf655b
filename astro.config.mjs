// @ts-check
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { bundleServing } from './scripts/bundle-serving.ts';
import { nodeEntry } from './scripts/node-entry.ts';
import { precompress } from './scripts/precompress.ts';
import { schemasOffTheClient } from './scripts/schemas-off-the-client.ts';

/** `client:interact`: hydrate an island on the reader's first interaction with it (src/lib/hooks/client-interact.ts). */
/** @returns {import('astro').AstroIntegration} */
const interactDirective = () => ({
  name: 'client-interact',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) =>
      addClientDirective({ name: 'interact', entrypoint: fileURLToPath(new URL('./src/lib/hooks/client-interact.ts', import.meta.url)) }),
  },
});

// The API's origin when it is served from another host (PUBLIC_API_URL), for the CSP.
const apiOrigin = process.env.PUBLIC_API_URL ? ` ${new URL(process.env.PUBLIC_API_URL).origin}` : '';

export default defineConfig({
  output: 'server',
  // BUILD_DIR lets two builds of one checkout run side by side (parallel test servers).
  outDir: process.env.BUILD_DIR ?? './dist',
  // Pages are rendered whole before sending, so each is made entirely in its reader's language.
  // `middleware`: scripts/serve.ts is the server and sends the static files itself; the standalone
  // handler looked every page and API request up on disk again first (a stat and a lstat each).
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
  // precompress after the site's files, so it sees every one the build wrote; the serving front's
  // bundle (scripts/bundle-serving.ts) is not sent to browsers. React's server HTML is made with
  // renderToString, not through web streams: a page is rendered whole anyway, and a tournament page
  // renders about fifty React components, each twice (Astro's renderer check renders it once more),
  // which through streams cost more than the rest of the render (issue 24).
  integrations: [react({ experimentalDisableStreaming: true }), interactDirective(), precompress(), bundleServing()],
  server: { port: Number(process.env.PORT ?? 4321), host: process.env.HOST ?? 'localhost' },
  security: {
    // Sessions are bearer tokens in localStorage, so Astro's cross-site form guard adds nothing here.
    checkOrigin: false,
    // Tokens live in localStorage, so no script may run unless Astro hashed it at build time.
    csp: {
      directives: [
        "default-src 'self'",
        `connect-src 'self'${apiOrigin}`,
        // News pictures may live on other sites; avatars previews are local blobs.
        `img-src 'self' https: data: blob:${apiOrigin}`,
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
    },
  },
  vite: {
    plugins: [tailwindcss(), schemasOffTheClient(), nodeEntry()],
    // @touch4it/ical-timezones reads its zone files beside itself, so it cannot be bundled; satori
    // carries its layout engine as 1.6 MB of inlined WebAssembly, loaded only by the share cards.
    ssr: { external: ['@electric-sql/pglite', 'pg', '@node-rs/argon2', 'sharp', 'nodemailer', '@touch4it/ical-timezones', 'satori'] },
  },
});
