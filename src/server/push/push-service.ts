/**
 * Web push's transport (issue 60): the `web-push` library encrypts each payload to its device's
 * keys (RFC 8291), signs the VAPID header with the site's key (RFC 8292) and posts it to the
 * device's push service. This module only says how to connect and what each answer means for the
 * outbox (services/notices/push-outbox.ts): taken, gone, try again (when), or refused.
 */
import type { Agent } from 'node:https';
import { isIP } from 'node:net';
import type * as WebPush from 'web-push';
import { isPublicAddress, PrivateAddressError, publicOnlyAgent } from '../outbound/public-only.ts';
import { retryAfterMs } from '../outbound/retry-after.ts';

/** The site's VAPID key pair, as web-push makes and reads it (URL-safe base64). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** A device as its browser's PushSubscription names it. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** What one push's message is: the payload (JSON, encrypted by web-push) and how the push service may treat it. */
export interface PushMessage {
  payload: string;
  /** Seconds the push service keeps it for a device that is offline. */
  ttlSeconds: number;
  /** Replaces an undelivered message of the same topic on the push service (the notice's id: a second try never shows twice). */
  topic?: string;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
}

/**
 * What a push came to: `sent` (the push service took it), `gone` (the device unsubscribed, or its
 * endpoint can never be reached: drop the subscription), `retry` (the service is down, slow or
 * throttling: try again, not before `afterMs` when it said so), `refused` (this message will never
 * be taken: give it up, keep the device).
 */
export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'gone'; reason: string }
  | { kind: 'retry'; reason: string; afterMs?: number }
  | { kind: 'refused'; reason: string };

export interface PushService {
  /** The public key browsers subscribe with. */
  publicKey: string;
  send(target: PushTarget, message: PushMessage, now?: Date): Promise<PushOutcome>;
}

/** How long a push service may stay silent on a connection before the try fails (and is retried later). */
export const PUSH_TIMEOUT_MS = 10_000;

export interface PushServiceOptions {
  /** PUSH_SUBJECT: the site's contact for push services, `mailto:` or `https:`. */
  subject: string;
  keys: VapidKeys;
  /** The connections' agent: by default `publicOnlyAgent()`. Tests give one that trusts their stand-in on loopback. */
  agent?: Agent;
  timeoutMs?: number;
}

/** The HTTP statuses that mean the device's subscription is no more (RFC 8030 §7.3: 404, 410). */
const GONE = new Set([404, 410]);

/** web-push's failure: the push service's answer, or a network error without one. */
interface WebPushFailure {
  statusCode?: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: string;
  code?: string;
  message?: string;
}

/** What a failure from web-push means for the outbox. */
export function outcomeOf(error: unknown, now: Date): PushOutcome {
  const failure = (error ?? {}) as WebPushFailure;
  if (error instanceof PrivateAddressError || failure.code === 'EPRIVATEADDRESS') return { kind: 'gone', reason: failure.message ?? 'private address' };
  const status = failure.statusCode;
  if (typeof status !== 'number') return { kind: 'retry', reason: failure.code ?? failure.message ?? 'no answer' };
  const said = `${status}${failure.body ? ` ${String(failure.body).slice(0, 200)}` : ''}`;
  if (GONE.has(status)) return { kind: 'gone', reason: said };
  if (status === 429 || status >= 500) {
    const header = failure.headers?.['retry-after'];
    const afterMs = retryAfterMs(Array.isArray(header) ? header[0] : header, now);
    return { kind: 'retry', reason: said, ...(afterMs !== null ? { afterMs } : {}) };
  }
  // 400 (a malformed message), 401/403 (a VAPID header the service will not take), 413 (too large): trying again changes nothing.
  return { kind: 'refused', reason: said };
}

/** An endpoint written with an IP address the agent's lookup never sees: refused here unless it is public. */
function literalAddressOf(endpoint: string): string | null {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/**
 * The push service of the site: sends through web-push (loaded with the first push, so a server
 * that sends none does not hold it) with the site's VAPID keys, over `options.agent`.
 */
export function createPushService(options: PushServiceOptions): PushService {
  const agent = options.agent ?? publicOnlyAgent();
  const checksAddresses = !options.agent;
  let library: Promise<typeof WebPush> | undefined;
  return {
    publicKey: options.keys.publicKey,
    async send(target, message, now = new Date()) {
      if (checksAddresses) {
        const literal = literalAddressOf(target.endpoint);
        if (literal && !isPublicAddress(literal)) return { kind: 'gone', reason: `${literal} — непублічна адреса` };
      }
      const webpush = await (library ??= import('web-push').then((module) => module.default));
      const request = {
        vapidDetails: { subject: options.subject, publicKey: options.keys.publicKey, privateKey: options.keys.privateKey },
        TTL: message.ttlSeconds,
        urgency: message.urgency ?? 'normal',
        ...(message.topic ? { topic: message.topic } : {}),
        agent,
        timeout: options.timeoutMs ?? PUSH_TIMEOUT_MS,
      } as const;
      // Keys no message can be encrypted to (or an endpoint that is no URL) fail here, before any
      // connection: the device can never be reached, which a network error never says.
      try {
        webpush.generateRequestDetails(target, message.payload, request);
      } catch (error) {
        return { kind: 'gone', reason: (error as Error).message };
      }
      try {
        await webpush.sendNotification(target, message.payload, request);
        return { kind: 'sent' };
      } catch (error) {
        return outcomeOf(error, now);
      }
    },
  };
}

/** A new VAPID key pair (web-push's own), for the first start with push on. */
export async function generateVapidKeys(): Promise<VapidKeys> {
  const webpush = (await import('web-push')).default;
  return webpush.generateVAPIDKeys();
}
