import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { request, type Dispatcher } from 'undici';
import type { EventPayload, OrganisationEvent } from '../../../lib/domain/organisation-events.ts';
import { isPublicAddress, PrivateAddressError, publicOnlyDispatcher } from '../../outbound/public-only.ts';
import { retryAfterMs } from '../../outbound/retry-after.ts';
import type { Delivery, DeliveryDeps, Endpoint, PostOutcome } from './delivery-types.ts';

/**
 * Posting an event to an organisation's outgoing webhook (issue 60), signed as the Standard
 * Webhooks specification says: `webhook-id` (the delivery's id, the same on every retry, so a
 * receiver drops a repeat), `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 of
 * `id.timestamp.body` with the endpoint's `whsec_` secret), made by the specification's own
 * library. The connection reaches public addresses only (server/outbound/public-only.ts), and a
 * redirect is not followed: the receiver is the address its managers wrote.
 */

/** The body: the specification's envelope (`type`, `timestamp`, `data`), with the tournament's page in `data`. */
export function webhookBody(event: OrganisationEvent, payload: EventPayload, createdAt: Date, siteUrl: string) {
  return {
    type: event,
    timestamp: createdAt.toISOString(),
    data: { ...payload, tournament: { ...payload.tournament, url: `${siteUrl}/tournaments/${payload.tournament.id}` } },
  };
}

let guarded: Dispatcher | undefined;
/** One guarded connection pool for the process, made when the first webhook is posted. */
const defaultDispatcher = () => (guarded ??= publicOnlyDispatcher());

const short = (text: string) => text.slice(0, 500);

export async function postToWebhook(endpoint: Endpoint, delivery: Delivery, deps: DeliveryDeps, now = new Date()): Promise<PostOutcome> {
  if (!endpoint.secret) return { ok: false, gone: true, status: 0, error: 'no signing secret', retryAfterMs: null };
  const privateAllowed = deps.outbound?.privateAllowed ?? false;
  const host = new URL(endpoint.url).hostname.replace(/^\[|\]$/g, '');
  if (!privateAllowed && isIP(host) !== 0 && !isPublicAddress(host)) {
    return { ok: false, gone: true, status: 0, error: `${host} — непублічна адреса`, retryAfterMs: null };
  }
  const body = JSON.stringify(webhookBody(delivery.event, delivery.payload, delivery.createdAt, deps.siteUrl));
  const signature = new Webhook(endpoint.secret).sign(delivery.id, now, body);
  const timeoutMs = deps.timeoutMs ?? 10_000;
  try {
    const response = await request(endpoint.url, {
      method: 'POST',
      dispatcher: deps.outbound?.dispatcher ?? defaultDispatcher(),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Kiberarena-Webhooks/1',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.body.text().catch(() => '');
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { ok: true, status };
    const header = response.headers['retry-after'];
    return {
      ok: false,
      // 410 Gone: the receiver asks for nothing more (the specification's way to unsubscribe).
      gone: status === 410,
      status,
      error: short(`${status}${text ? ` ${text}` : ''}`),
      retryAfterMs: retryAfterMs(Array.isArray(header) ? header[0] : header, now),
    };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    if (cause instanceof PrivateAddressError || (cause as { code?: string }).code === 'EPRIVATEADDRESS') {
      return { ok: false, gone: true, status: 0, error: short((cause as Error).message), retryAfterMs: null };
    }
    return { ok: false, gone: false, status: 0, error: short((error as Error).message || String(error)), retryAfterMs: null };
  }
}
