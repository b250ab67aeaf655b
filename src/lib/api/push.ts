import { z } from 'zod';
import { t } from '../i18n/index.ts';
import type { PushKeyView } from './push-calls.ts';

/*
 * Web push (issue 60): the site's public VAPID key, and the devices a signed-in user registers for
 * their notices. The island's calls live apart, in push-calls.ts, so it ships no zod.
 */

/** The longest endpoint taken: push services' are a few hundred characters. */
export const ENDPOINT_MAX = 1000;

/** URL-safe base64 (padding allowed), as browsers write a subscription's keys. */
const base64url = (min: number, max: number) =>
  z
    .string({ error: () => t('notices.push.badKeys') })
    .min(min, { error: () => t('notices.push.badKeys') })
    .max(max, { error: () => t('notices.push.badKeys') })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: () => t('notices.push.badKeys') });

/** A push service's address: HTTPS, with no user name or password in it. */
export const endpointSchema = z
  .string({ error: () => t('notices.push.badEndpoint') })
  .max(ENDPOINT_MAX, { error: () => t('notices.push.badEndpoint') })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
      } catch {
        return false;
      }
    },
    { error: () => t('notices.push.badEndpoint') },
  );

/**
 * `POST /push/subscriptions`: the browser's PushSubscription as `toJSON()` gives it. `p256dh` is a
 * P-256 point (65 bytes: 87 characters), `auth` 16 bytes (22); the server checks the point is on the curve.
 */
export const pushSubscriptionInput = z
  .object({
    endpoint: endpointSchema,
    expirationTime: z.number().int().nonnegative().nullable().optional(),
    keys: z.object({ p256dh: base64url(87, 88), auth: base64url(22, 24) }).strict(),
  })
  .strict();
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

/** `DELETE /push/subscriptions`: the device to forget, by its endpoint. */
export const pushEndpointInput = z.object({ endpoint: endpointSchema }).strict();

/** `GET /push/key`: whether the site sends web push, and the public key to subscribe with. */
export const pushKeySchema = z.object({ enabled: z.boolean(), publicKey: z.string().optional() }) satisfies z.ZodType<PushKeyView>;
