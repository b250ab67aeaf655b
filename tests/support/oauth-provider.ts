import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Discord's OAuth 2 on loopback (issue 60): `/oauth2/authorize` signs in whoever
 * `user` is at once and sends the browser back with a code; `/api/oauth2/token` trades a code once,
 * for the client's id and secret and the PKCE verifier that matches the challenge; `/api/users/@me`
 * answers for the token. `mode` makes it slow (never answers the token call) or down (503).
 */
export interface OAuthUser {
  id: string;
  username: string;
  global_name?: string | null;
}

export interface OAuthStandIn {
  root: string;
  clientId: string;
  clientSecret: string;
  user: OAuthUser;
  mode: 'ok' | 'slow' | 'down';
  /** Token calls received, and the ones refused. */
  tokenCalls: { code: string; ok: boolean }[];
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  user: OAuthUser;
  used: boolean;
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

export async function oauthStandIn(): Promise<OAuthStandIn> {
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, OAuthUser>();
  const hanging = new Set<ServerResponse>();
  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  const standIn: OAuthStandIn = {
    root: '',
    clientId: '123456789012345678',
    clientSecret: 'stand-in-secret-' + randomBytes(8).toString('hex'),
    user: { id: '80351110224678912', username: 'nelly', global_name: 'Nelly' },
    mode: 'ok',
    tokenCalls: [],
    close: async () => {},
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', standIn.root);
    if (standIn.mode === 'down') return json(res, 503, { message: 'down' });
    if (req.method === 'GET' && url.pathname === '/oauth2/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== standIn.clientId || q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
        return json(res, 400, { error: 'invalid_request' });
      }
      const code = randomBytes(16).toString('hex');
      grants.set(code, { clientId: standIn.clientId, redirectUri: q.get('redirect_uri')!, challenge: q.get('code_challenge')!, user: { ...standIn.user }, used: false });
      const back = new URL(q.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/api/oauth2/token') {
      const form = new URLSearchParams(await body(req));
      if (standIn.mode === 'slow') {
        hanging.add(res);
        return;
      }
      const code = form.get('code') ?? '';
      const grant = grants.get(code);
      const [id, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
      const verifier = form.get('code_verifier') ?? '';
      const ok =
        grant !== undefined &&
        !grant.used &&
        id === standIn.clientId &&
        secret === standIn.clientSecret &&
        form.get('grant_type') === 'authorization_code' &&
        form.get('redirect_uri') === grant.redirectUri &&
        createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
      standIn.tokenCalls.push({ code, ok });
      if (!ok) return json(res, 400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
      grant.used = true;
      const token = randomBytes(16).toString('hex');
      tokens.set(token, grant.user);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 604800, refresh_token: randomBytes(8).toString('hex'), scope: 'identify' });
    }
    if (req.method === 'GET' && url.pathname === '/api/users/@me') {
      const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!user) return json(res, 401, { message: '401: Unauthorized', code: 0 });
      return json(res, 200, { ...user, discriminator: '0', avatar: null });
    }
    json(res, 404, { message: 'not here' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return standIn;
}
