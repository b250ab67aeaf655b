import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/api/app.ts';
import type { Deps } from '../../src/server/api/context.ts';

/** The API with a database stand-in whose ping answers as told; nothing else here reads it. */
const appWith = (ping: () => Promise<void>) =>
  createApp({ database: { db: {}, kind: 'pglite', ping }, trustProxy: false } as unknown as Deps);

describe('/api/health', () => {
  it('sends its 503 with Retry-After, so a balancer knows when to look again', async () => {
    const response = await appWith(() => Promise.reject(new Error('down'))).request('/api/health');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ status: 'unavailable', database: 'unavailable' });
  });

  it('sends no Retry-After while healthy', async () => {
    const response = await appWith(() => Promise.resolve()).request('/api/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('retry-after')).toBeNull();
  });
});

describe('/api/docs', () => {
  it('is sent with a Content-Security-Policy that allows its own style by hash and nothing else', async () => {
    const response = await appWith(() => Promise.resolve()).request('/api/docs');
    expect(response.status).toBe(200);
    const page = await response.text();
    const csp = response.headers.get('content-security-policy') ?? '';
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(csp).not.toContain('unsafe');
    // Every <style> on the page is allowed by its hash; nothing else on it would need a permission.
    const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, text]) => `'sha256-${createHash('sha256').update(text!).digest('base64')}'`);
    expect(styles).toHaveLength(1);
    expect(directives.get('style-src')).toEqual(styles);
    expect(page).not.toMatch(/<script|<link|<img|\sstyle=|<iframe/i);
    expect(page).toContain('/api/health');
  });
});
