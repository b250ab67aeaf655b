import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Steam's OpenID 2.0 provider on loopback (issue 60): `/openid` and `/openid/id/<id>`
 * answer discovery with an XRDS document naming `/openid/login`; a `checkid_setup` there signs in
 * `steamId` at once and sends the browser back with a signed assertion; a `check_authentication`
 * answers `is_valid:true` only for an assertion it issued, unaltered (or never, with `valid` false).
 * `/ISteamUser/GetPlayerSummaries/v2/` names the persona for the Web API key `apiKey`.
 * `mode` makes it slow (check_authentication never answers) or down (503 everywhere).
 */
export interface OpenIdStandIn {
  /** The provider's address, as STEAM_OPENID_ENDPOINT: `<root>/openid`. */
  endpoint: string;
  root: string;
  steamId: string;
  persona: string;
  apiKey: string;
  valid: boolean;
  mode: 'ok' | 'slow' | 'down';
  checks: { valid: boolean }[];
  close(): Promise<void>;
}

const SIGNED = ['op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle'];

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

export async function openIdStandIn(): Promise<OpenIdStandIn> {
  const secret = randomBytes(32);
  const hanging = new Set<ServerResponse>();
  const sign = (params: URLSearchParams) =>
    createHmac('sha256', secret)
      .update(SIGNED.map((key) => `${key}:${params.get(`openid.${key}`) ?? ''}\n`).join(''))
      .digest('base64');
  const standIn: OpenIdStandIn = {
    endpoint: '',
    root: '',
    steamId: '76561197960435530',
    persona: 'Robin',
    apiKey: 'A'.repeat(32),
    valid: true,
    mode: 'ok',
    checks: [],
    close: async () => {},
  };
  const xrds = () =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<xrds:XRDS xmlns:xrds="xri://$xrds" xmlns="xri://$xrd*($v*2.0)"><XRD><Service priority="0"><Type>http://specs.openid.net/auth/2.0/server</Type><URI>${standIn.endpoint}/login</URI></Service></XRD></xrds:XRDS>`;
  const server = createServer(async (req, res): Promise<void> => {
    const url = new URL(req.url ?? '/', standIn.root);
    if (standIn.mode === 'down') {
      res.writeHead(503);
      res.end('down');
      return;
    }
    if (req.method === 'GET' && (url.pathname === '/openid' || /^\/openid\/id\/\d+$/.test(url.pathname))) {
      res.writeHead(200, { 'content-type': 'application/xrds+xml' });
      res.end(xrds());
      return;
    }
    if (req.method === 'GET' && url.pathname === '/openid/login' && url.searchParams.get('openid.mode') === 'checkid_setup') {
      const returnTo = url.searchParams.get('openid.return_to');
      if (!returnTo) {
        res.writeHead(400);
        res.end('no return_to');
      return;
      }
      const back = new URL(returnTo);
      const claimed = `${standIn.endpoint}/id/${standIn.steamId}`;
      const params = new URLSearchParams({
        'openid.ns': 'http://specs.openid.net/auth/2.0',
        'openid.mode': 'id_res',
        'openid.op_endpoint': `${standIn.endpoint}/login`,
        'openid.claimed_id': claimed,
        'openid.identity': claimed,
        'openid.return_to': returnTo,
        'openid.response_nonce': `${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}${randomBytes(6).toString('hex')}`,
        'openid.assoc_handle': '1234567890',
        'openid.signed': SIGNED.join(','),
      });
      params.set('openid.sig', sign(params));
      for (const [key, value] of params) back.searchParams.set(key, value);
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/openid/login') {
      const form = new URLSearchParams(await body(req));
      if (form.get('openid.mode') !== 'check_authentication') {
        res.writeHead(400);
        res.end();
      return;
      }
      if (standIn.mode === 'slow') {
        hanging.add(res);
        return;
      }
      const valid = standIn.valid && form.get('openid.sig') === sign(form);
      standIn.checks.push({ valid });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`ns:http://specs.openid.net/auth/2.0\nis_valid:${valid}\n`);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/ISteamUser/GetPlayerSummaries/v2/') {
      if (url.searchParams.get('key') !== standIn.apiKey) {
        res.writeHead(403);
        res.end();
      return;
      }
      const ids = (url.searchParams.get('steamids') ?? '').split(',');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ response: { players: ids.includes(standIn.steamId) ? [{ steamid: standIn.steamId, personaname: standIn.persona }] : [] } }));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.endpoint = `${standIn.root}/openid`;
  standIn.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return standIn;
}
