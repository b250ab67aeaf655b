import { describe, expect, it } from 'vitest';
import { servedOverHttps } from '../../src/server/transport.ts';

const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe('servedOverHttps (whether HSTS is sent)', () => {
  it('is true for a request that arrived over https', () => {
    expect(servedOverHttps(request('https://arena.test/'), { trustProxy: false })).toBe(true);
  });

  it('is false for plain http without a trusted proxy, whatever the headers claim', () => {
    const forged = request('http://arena.test/', { 'x-forwarded-proto': 'https' });
    expect(servedOverHttps(forged, { trustProxy: false })).toBe(false);
  });

  it('believes the first X-Forwarded-Proto of a trusted proxy', () => {
    expect(servedOverHttps(request('http://10.0.0.2/', { 'x-forwarded-proto': 'HTTPS, http' }), { trustProxy: true })).toBe(true);
    expect(servedOverHttps(request('http://10.0.0.2/', { 'x-forwarded-proto': 'http' }), { trustProxy: true })).toBe(false);
    expect(servedOverHttps(request('http://10.0.0.2/'), { trustProxy: true })).toBe(false);
  });

  it('is true whenever the public address is https', () => {
    expect(servedOverHttps(request('http://127.0.0.1:4321/'), { trustProxy: false, siteUrl: 'https://kiberarena.ua' })).toBe(true);
    expect(servedOverHttps(request('http://127.0.0.1:4321/'), { trustProxy: false, siteUrl: 'http://localhost:4321' })).toBe(false);
  });
});
