/**
 * The cabinet's web push calls (issue 60), apart from their zod schemas in `push.ts`: the island
 * that imports these ships no zod.
 */
import type { ApiClient } from './client.ts';

/** `GET /push/key`: `enabled` false when the site has no PUSH_SUBJECT (no push controls are shown then). */
export interface PushKeyView {
  enabled: boolean;
  /** The VAPID public key, URL-safe base64: what `pushManager.subscribe` takes as `applicationServerKey`. */
  publicKey?: string;
}

/** A browser's PushSubscription as `toJSON()` gives it. */
export interface DeviceSubscription {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

export const getPushKey = (api: ApiClient) => api.get('push/key').json<PushKeyView>();
export const registerDevice = (api: ApiClient, subscription: DeviceSubscription) =>
  api.post('push/subscriptions', { json: subscription }).json<{ message: string; devices: number }>();
export const forgetDevice = (api: ApiClient, endpoint: string) =>
  api.delete('push/subscriptions', { json: { endpoint } }).json<{ message: string; removed: boolean }>();
