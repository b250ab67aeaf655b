// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  output: 'server',
  // BUILD_DIR lets two builds of one checkout run side by side (parallel test servers).
  outDir: process.env.BUILD_DIR ?? './dist',
  // Pages are rendered whole before sending, so each is made entirely in its reader's language.
  adapter: node({ mode: 'standalone', experimentalDisableStreaming: true }),
  integrations: [react()],
  server: { port: Number(process.env.PORT ?? 4321), host: process.env.HOST ?? 'localhost' },
  // Sessions are bearer tokens in localStorage, so Astro's cross-site form guard adds nothing here.
  security: { checkOrigin: false },
  vite: {
    plugins: [tailwindcss()],
    ssr: { external: ['@electric-sql/pglite', 'pg', '@node-rs/argon2', 'sharp', 'nodemailer'] },
  },
});
