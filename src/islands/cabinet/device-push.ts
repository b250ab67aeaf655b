/**
 * This device's web push subscription (issue 60), in the browser: the service worker
 * (public/sw.js) is registered only here, when the site has push and the browser can take it, so a
 * reader who never turns push on runs no worker at all.
 */

/** Whether this browser can take web push: a service worker, the Push API and notifications (Safari on iOS only in an installed app). */
export const canPush = (): boolean =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext;

/** What the browser says about notifications for this site: `denied` is the reader's own refusal, which only they can undo. */
export const notificationPermission = (): NotificationPermission => Notification.permission;

/** The service worker's registration, registering it first when there is none. */
async function registration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** A URL-safe base64 key (the site's VAPID public key) as the bytes `pushManager.subscribe` takes. */
export function keyBytes(key: string): Uint8Array<ArrayBuffer> {
  const base64 = (key + '='.repeat((4 - (key.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Whether a subscription was made with `publicKey` (a subscription made with an older key of the site can never be pushed to). */
function madeWith(subscription: PushSubscription, publicKey: string): boolean {
  const key = subscription.options.applicationServerKey;
  if (!key) return true;
  const made = new Uint8Array(key);
  const wanted = keyBytes(publicKey);
  return made.length === wanted.length && made.every((byte, i) => byte === wanted[i]);
}

/**
 * This device's subscription to the site's pushes, when it holds one made with the site's current
 * key (one made with another is given up). Registers no worker: a device without one has none.
 */
export async function currentSubscription(publicKey: string): Promise<PushSubscription | null> {
  const found = await navigator.serviceWorker.getRegistration('/');
  const subscription = (await found?.pushManager.getSubscription()) ?? null;
  if (subscription && !madeWith(subscription, publicKey)) {
    await subscription.unsubscribe().catch(() => false);
    return null;
  }
  return subscription;
}

/**
 * Asks the reader's permission (the browser's own prompt) and subscribes this device with the
 * site's key. Null when the reader did not allow notifications.
 */
export async function subscribe(publicKey: string): Promise<PushSubscription | null> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return null;
  const found = await registration();
  const held = await found.pushManager.getSubscription();
  if (held && madeWith(held, publicKey)) return held;
  await held?.unsubscribe().catch(() => false);
  return found.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
}
