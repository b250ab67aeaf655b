import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, compress } from '../../src/server/serving/compression.ts';

const page = '<!doctype html><p>' + 'Кіберарена — турніри. '.repeat(200) + '</p>';
const request = (acceptEncoding?: string, method = 'GET') =>
  new Request('http://arena.test/', { method, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
const html = (body: string | null = page, headers: Record<string, string> = {}) =>
  new Response(body, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', vary: 'Cookie', ...headers } });

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(null)).toBeNull();
  });

  it('answers the same when asked again, and past its memory of values a client invents', () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 500; i++) {
        expect(chooseEncoding(`x-${i}, gzip`)).toBe('gzip');
        expect(chooseEncoding(`br;q=0, x-${i}`)).toBeNull();
      }
      expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    }
  });
});

describe('compress', () => {
  it('sends a page as brotli that decodes to the same text, keeping status and headers', async () => {
    const response = await compress(request('br, gzip'), html(page, { 'x-frame-options': 'DENY' }));
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toBe('Cookie, Accept-Encoding');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBeLessThan(Buffer.byteLength(page) / 5);
    expect(brotliDecompressSync(body).toString()).toBe(page);
  });

  it('falls back to gzip', async () => {
    const response = await compress(request('gzip'), html());
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(page);
  });

  it('leaves alone what it should not touch: no Accept-Encoding, small bodies, pictures, empty answers', async () => {
    const plain = await compress(request(), html());
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(page);
    expect((await compress(request('br'), html('<p>мало</p>'))).headers.get('content-encoding')).toBeNull();
    const picture = new Response(new Uint8Array(4096), { headers: { 'content-type': 'image/webp' } });
    expect((await compress(request('br'), picture)).headers.get('content-encoding')).toBeNull();
    const notModified = new Response(null, { status: 304 });
    expect((await compress(request('br'), notModified)).status).toBe(304);
  });

  it('compresses a small answer without waiting for a turn of the loop, and a large one as well in either size', async () => {
    for (const encoding of ['br', 'gzip']) {
      let turned = false;
      setImmediate(() => (turned = true));
      const small = await compress(request(encoding), html());
      // Handed to libuv's pool, the answer would come back only after the immediate had run.
      expect(turned).toBe(false);
      const large = await compress(request(encoding), html('<p>' + 'Кіберарена — турніри. '.repeat(8000)));
      for (const [answer, body] of [[small, page], [large, '<p>' + 'Кіберарена — турніри. '.repeat(8000)]] as const) {
        expect(answer.headers.get('content-encoding')).toBe(encoding);
        const bytes = Buffer.from(await answer.arrayBuffer());
        expect((encoding === 'br' ? brotliDecompressSync(bytes) : gunzipSync(bytes)).toString()).toBe(body);
      }
    }
  });
});
