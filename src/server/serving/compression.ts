import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

/** Text worth compressing: pages, JSON, feeds, SVG. Pictures are compressed already. */
const COMPRESSIBLE = /^(text\/|application\/(json|xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;
/** Below this a compressed body saves less than it costs. */
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Bodies up to this size are compressed on the calling thread. Compressing one of 16 KB takes about
 * 0.1 ms, less than handing it to libuv's pool and back; and handed over, the answer waits for
 * another turn of a busy server's loop. Larger bodies (a page, a big bracket) are compressed off the
 * thread.
 */
const COMPRESS_IN_PLACE_MAX = 64 * 1024;

const GZIP_OPTIONS = { level: 6 };

/** `body` compressed with `encoding`: in place when small (COMPRESS_IN_PLACE_MAX), in libuv's pool otherwise. */
function pack(body: Uint8Array, encoding: 'br' | 'gzip'): Buffer | Promise<Buffer> {
  const inPlace = body.byteLength <= COMPRESS_IN_PLACE_MAX;
  if (encoding === 'gzip') return inPlace ? gzipSync(body, GZIP_OPTIONS) : gzipped(body, GZIP_OPTIONS);
  // Brotli at a middle setting: nearly its best size for a fraction of the time of its highest.
  const options = { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } };
  return inPlace ? brotliCompressSync(body, options) : brotli(body, options);
}

/**
 * What each Accept-Encoding chose: browsers send a handful of distinct values, and a held answer
 * (scripts/serve.ts) asks on every request. Bounded, so a client inventing values fills nothing.
 */
const chosen = new Map<string, 'br' | 'gzip' | null>();
const CHOSEN_MAX = 64;

/** The encoding to send, from the request's Accept-Encoding: brotli, else gzip, else none. */
export function chooseEncoding(acceptEncoding: string | null): 'br' | 'gzip' | null {
  const key = acceptEncoding ?? '';
  const known = chosen.get(key);
  if (known !== undefined) return known;
  const choice = parseEncoding(key);
  if (chosen.size < CHOSEN_MAX) chosen.set(key, choice);
  return choice;
}

function parseEncoding(acceptEncoding: string): 'br' | 'gzip' | null {
  const offered = new Map(
    acceptEncoding.split(',').map((part) => {
      const [name = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return [name.trim(), q ? Number(q.slice(2)) : 1] as const;
    }),
  );
  const accepts = (name: string) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

/**
 * Compresses a finished response for a browser that takes it. Pages are rendered whole (streaming
 * is off), so the body is in memory anyway.
 */
export async function compress(request: Request, response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  // An event stream never ends, so it cannot be read whole (serving/event-streams.ts).
  if (!response.body || response.headers.has('content-encoding') || !COMPRESSIBLE.test(type) || type.startsWith('text/event-stream') || request.method === 'HEAD') {
    return response;
  }
  const encoding = chooseEncoding(request.headers.get('accept-encoding'));
  const headers = new Headers(response.headers);
  headers.append('Vary', 'Accept-Encoding');
  const init = { status: response.status, statusText: response.statusText, headers };
  const body = new Uint8Array(await response.arrayBuffer());
  if (!encoding || body.byteLength < MIN_BYTES) return new Response(body, init);
  const packed = await pack(body, encoding);
  headers.set('Content-Encoding', encoding);
  headers.delete('Content-Length');
  return new Response(new Uint8Array(packed), init);
}
