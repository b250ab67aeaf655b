import type http from 'node:http';

/** A Node request's head as a fetch `Headers`, as Astro's Node adapter makes it. */
export function fetchHeaders(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.append(name, value);
  }
  return headers;
}

/** The headers of a fetch `Response` as Node's `writeHead` takes them: each cookie a header of its own. */
export function nodeHeaders(response: Response): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of response.headers) if (name !== 'set-cookie' && name !== 'content-length') headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/** Sends a whole (never a streamed) `response` on Node's `res`, with its length. */
export async function sendWhole(res: http.ServerResponse, response: Response): Promise<void> {
  // A 304 names no length: some clients would wait for that many bytes, which never come.
  if (response.status === 304) {
    res.writeHead(304, nodeHeaders(response));
    res.end();
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...nodeHeaders(response), 'content-length': body.length });
  res.end(body);
}
