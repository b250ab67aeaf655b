/**
 * A push service stand-in on loopback (issue 60): an HTTPS server with a certificate made for the
 * test, which records every push it is sent and answers as the test says — taken (201), gone (404,
 * 410), throttling (429 with Retry-After), failing (500), slow, or never. Devices are key pairs made
 * here, so a push's payload can be decrypted (http_ece, web-push's own) and its VAPID header
 * verified (jose) as a real push service would.
 */
import { createECDH, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ece from 'http_ece';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';
import { selfSignedCertificate } from '../../deploy/nginx-local.ts';

/** How the stand-in answers a push: a status (with Retry-After for 429 when given), after a delay, or never. */
export type Answer = { status: number; retryAfter?: string; delayMs?: number } | 'hang';

/** A push the stand-in received. */
export interface Received {
  device: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  at: number;
}

/** A device's side of a subscription: what the browser would send the site, and the keys to read its pushes. */
export interface Device {
  name: string;
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  ecdh: ECDH;
  auth: Buffer;
}

export async function startPushService() {
  const folder = mkdtempSync(join(tmpdir(), 'push-stand-in-'));
  const { certificate, key } = selfSignedCertificate(folder);
  const cert = readFileSync(certificate);
  const received: Received[] = [];
  /** Answers queued per device (the first is used up first; the last stays); 201 for a device with none. */
  const answers = new Map<string, Answer[]>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer({ cert, key: readFileSync(key) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const device = decodeURIComponent((req.url ?? '').replace(/^\/push\//, ''));
      received.push({ device, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
      const queue = answers.get(device) ?? [];
      const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 201 };
      if (answer === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      const reply = () => {
        res.writeHead(answer.status, answer.retryAfter ? { 'Retry-After': answer.retryAfter } : {});
        res.end(answer.status >= 400 ? `stand-in says ${answer.status}` : '');
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `https://127.0.0.1:${port}`;

  return {
    origin,
    received,
    /** An agent that trusts the stand-in's certificate: the test app's push service connects through it. */
    agent: new Agent({ ca: cert }),
    /** Sets how the stand-in answers `device`'s pushes from now on: in turn, the last one for good. */
    answer(device: Device | string, ...list: Answer[]) {
      answers.set(typeof device === 'string' ? device : device.name, list);
    },
    /** A new device (a browser's key pair and auth secret) with its endpoint on the stand-in. */
    device(name: string = randomUUID()): Device {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      return {
        name,
        ecdh,
        auth,
        subscription: {
          endpoint: `${origin}/push/${encodeURIComponent(name)}`,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
      };
    },
    /** The pushes `device` received, oldest first. */
    pushesTo(device: Device): Received[] {
      return received.filter((r) => r.device === device.name);
    },
    /** A push's payload as the device reads it, decrypted with its keys (RFC 8291, aes128gcm). */
    read(push: Received, device: Device): Record<string, unknown> {
      const plain = ece.decrypt(push.body, { version: 'aes128gcm', privateKey: device.ecdh, authSecret: device.auth });
      return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
    },
    /** The push's VAPID claims (RFC 8292) once its signature is verified with the key the header names; throws when it does not hold. */
    async vapid(push: Received): Promise<{ claims: JWTPayload; publicKey: string }> {
      const header = String(push.headers.authorization ?? '');
      const found = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
      if (!found) throw new Error(`no VAPID authorization: ${header}`);
      const [, token, publicKey] = found as unknown as [string, string, string];
      const point = Buffer.from(publicKey, 'base64url');
      const jwk = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') };
      const { payload } = await jwtVerify(token, await importJWK(jwk, 'ES256'), { audience: origin, algorithms: ['ES256'] });
      return { claims: payload, publicKey };
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export type PushStandIn = Awaited<ReturnType<typeof startPushService>>;
