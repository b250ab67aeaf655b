import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forwardedBy, servedOverHttps } from '../../src/server/serving/transport.ts';

const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe('servedOverHttps (whether HSTS is sent)', () => {
  it('is true for a request that arrived over https', () => {
    expect(servedOverHttps(request('https://arena.test/'), { trustProxy: 0 })).toBe(true);
  });

  it('is false for plain http without a trusted proxy, whatever the headers claim', () => {
    const forged = request('http://arena.test/', { 'x-forwarded-proto': 'https' });
    expect(servedOverHttps(forged, { trustProxy: 0 })).toBe(false);
  });

  it('believes the X-Forwarded-Proto entry our own proxy wrote, not one the client put before it', () => {
    expect(servedOverHttps(request('http://10.0.0.2/', { 'x-forwarded-proto': 'http, HTTPS' }), { trustProxy: 1 })).toBe(true);
    expect(servedOverHttps(request('http://10.0.0.2/', { 'x-forwarded-proto': 'https, http' }), { trustProxy: 1 })).toBe(false);
    expect(servedOverHttps(request('http://10.0.0.2/', { 'x-forwarded-proto': 'http' }), { trustProxy: 1 })).toBe(false);
    expect(servedOverHttps(request('http://10.0.0.2/'), { trustProxy: 1 })).toBe(false);
  });

  it('is true whenever the public address is https', () => {
    expect(servedOverHttps(request('http://127.0.0.1:4321/'), { trustProxy: 0, siteUrl: 'https://kiberarena.ua' })).toBe(true);
    expect(servedOverHttps(request('http://127.0.0.1:4321/'), { trustProxy: 0, siteUrl: 'http://localhost:4321' })).toBe(false);
  });
});

describe('forwardedBy (the client address behind our proxies)', () => {
  it('takes the entry the outermost of our proxies added, counting from the right', () => {
    expect(forwardedBy('203.0.113.9', 1)).toBe('203.0.113.9');
    expect(forwardedBy('1.1.1.1, 203.0.113.9', 1)).toBe('203.0.113.9');
    expect(forwardedBy('1.1.1.1, 203.0.113.9, 10.0.0.5', 2)).toBe('203.0.113.9');
  });

  it('believes nothing without a proxy of ours, or from a header shorter than our proxies make', () => {
    expect(forwardedBy('203.0.113.9', 0)).toBeUndefined();
    expect(forwardedBy('203.0.113.9', 2)).toBeUndefined();
    expect(forwardedBy(undefined, 1)).toBeUndefined();
    expect(forwardedBy(' , ', 1)).toBeUndefined();
  });

  it('cannot be steered by anything the client writes before our entries', () => {
    const entry = fc.ipV4();
    fc.assert(fc.property(fc.array(fc.string(), { maxLength: 5 }), entry, fc.array(entry, { maxLength: 3 }), (forged, real, inner) => {
      const header = [...forged, real, ...inner].join(', ');
      return forwardedBy(header, inner.length + 1) === real;
    }));
  });
});
