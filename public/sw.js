// Кіберарена's service worker (issue 60): it shows the notices web push brings and opens their page
// when one is clicked. It caches nothing and handles no fetch: every page and API answer comes from
// the network as if it were not here, so nothing of one reader is ever kept for another, and a new
// build is never hidden behind an old copy. Registered by the cabinet only when push is turned on.

const ICON = '/icons/icon-192.png';
const BADGE = '/icons/badge-96.png';

self.addEventListener('install', () => {
  // A new version takes over at once: it keeps no state an older one could need.
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** A path on this site from the payload's `url`, or the home page: a push never opens another site. */
function sitePage(url) {
  try {
    const page = new URL(typeof url === 'string' ? url : '/', self.location.origin);
    return page.origin === self.location.origin ? page.href : new URL('/', self.location.origin).href;
  } catch {
    return new URL('/', self.location.origin).href;
  }
}

self.addEventListener('push', (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof notice.title === 'string' && notice.title ? notice.title : 'Кіберарена';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof notice.body === 'string' ? notice.body : '',
      icon: ICON,
      badge: BADGE,
      lang: typeof notice.lang === 'string' ? notice.lang : 'uk',
      // The notice's id: the same notice pushed twice replaces its first copy.
      ...(typeof notice.tag === 'string' && notice.tag ? { tag: notice.tag } : {}),
      data: { url: sitePage(notice.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = sitePage(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // A tab already on that page comes forward; else one of the site's tabs goes there; else a new one opens.
      const same = open.find((client) => client.url === target);
      if (same) return same.focus();
      const ours = open.find((client) => new URL(client.url).origin === self.location.origin && 'navigate' in client);
      if (ours) {
        const moved = await ours.navigate(target).catch(() => null);
        if (moved) return moved.focus();
      }
      return self.clients.openWindow(target);
    })(),
  );
});
