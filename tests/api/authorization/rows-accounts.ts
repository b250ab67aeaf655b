import { all, ip, memberNotification, people, pushDevice, signed, unique, w, type Row } from './world.ts';

/* Accounts, sessions, share cards, notifications, web push, Telegram and sign-in with Discord and Steam. Rows run in the order of their files and, within one, as written. */
export const accountsRows: Row[] = [
  { route: 'GET /api/health', request: () => ({ path: '/api/health' }), expect: all(200) },
  // Accounts
  {
    route: 'POST /api/auth/register',
    request: (a) => ({
      path: '/api/auth/register',
      ip: ip(a),
      body: { username: `new_${unique()}`, email: `new_${unique()}@example.test`, password: 'correct-horse-9' },
    }),
    expect: all(201),
  },
  {
    route: 'POST /api/auth/login',
    request: (a) => ({ path: '/api/auth/login', ip: ip(a), body: { loginOrEmail: people.user.user.username, password: people.user.password } }),
    expect: all(200),
  },
  { route: 'GET /api/auth/confirm', request: () => ({ path: `/api/auth/confirm?token=${'x'.repeat(43)}` }), expect: all(400) },
  {
    route: 'POST /api/auth/resend-confirmation',
    request: (a) => ({ path: '/api/auth/resend-confirmation', ip: ip(a), body: { email: `nobody_${unique()}@example.test` } }),
    expect: all(200),
  },
  { route: 'GET /api/users/me', request: () => ({ path: '/api/users/me' }), expect: signed(200) },
  { route: 'GET /api/cabinet/me', request: () => ({ path: '/api/cabinet/me' }), expect: signed(200) },
  {
    route: 'PUT /api/cabinet/me',
    request: (a) => {
      const username = `renamed_${unique()}`;
      // Only signed-in callers succeed; later rows sign them in by this name.
      if (a !== 'guest' && a !== 'unconfirmed') people[a].user.username = username;
      return { path: '/api/cabinet/me', body: { username } };
    },
    expect: signed(200),
  },
  { route: 'GET /api/avatar/:userId', request: () => ({ path: `/api/avatar/${people.user.user.id}` }), expect: all(200) },
  // Share cards (issue 23): public pictures, drawn once and held; a token changes nothing.
  { route: 'GET /api/og/:kind/:file', request: () => ({ path: `/api/og/tournament/${w.solo}.png?lang=en` }), expect: all(200) },
  // Notifications: only one's own
  { route: 'GET /api/users/me/notifications', request: () => ({ path: '/api/users/me/notifications' }), expect: signed(200) },
  { route: 'GET /api/users/me/events', request: (a) => ({ path: '/api/users/me/events', ip: ip(a) }), expect: signed(200) },
  { route: 'POST /api/users/me/notifications/read', request: () => ({ path: '/api/users/me/notifications/read' }), expect: signed(200) },
  {
    route: 'DELETE /api/users/me/notifications/:id',
    request: async () => ({ path: `/api/users/me/notifications/${await memberNotification()}` }),
    expect: signed(404, { member: 200 }),
  },
  { route: 'GET /api/users/me/matches', request: () => ({ path: '/api/users/me/matches' }), expect: signed(200) },
  { route: 'GET /api/users/me/tournaments', request: () => ({ path: '/api/users/me/tournaments' }), expect: signed(200) },
  { route: 'GET /api/users/me/applications', request: () => ({ path: '/api/users/me/applications' }), expect: signed(200) },
  { route: 'GET /api/users/me/calendar', request: () => ({ path: '/api/users/me/calendar' }), expect: signed(200) },
  { route: 'POST /api/users/me/calendar/revoke', request: () => ({ path: '/api/users/me/calendar/revoke' }), expect: signed(200) },
  { route: 'GET /api/users/me/notice-settings', request: () => ({ path: '/api/users/me/notice-settings' }), expect: signed(200) },
  {
    route: 'PUT /api/users/me/notice-settings',
    request: () => ({ path: '/api/users/me/notice-settings', body: { email: ['matchReady'] } }),
    expect: signed(200),
  },
  { route: 'PUT /api/users/me/locale', request: () => ({ path: '/api/users/me/locale', body: { locale: 'uk' } }), expect: signed(200) },
  // Web push (issue 60): the key is anyone's; a device is its signed-in user's.
  { route: 'GET /api/push/key', request: () => ({ path: '/api/push/key' }), expect: all(200) },
  { route: 'POST /api/push/subscriptions', request: (actor) => ({ path: '/api/push/subscriptions', body: pushDevice(actor) }), expect: signed(201) },
  {
    route: 'DELETE /api/push/subscriptions',
    request: (actor) => ({ path: '/api/push/subscriptions', body: { endpoint: pushDevice(actor).endpoint } }),
    expect: signed(200),
  },
  // Telegram (issue 60): a caller's own link; nobody here has linked a chat, so nothing to unlink. The webhook takes only Telegram's secret, no one's token.
  { route: 'GET /api/telegram/link', request: () => ({ path: '/api/telegram/link' }), expect: signed(200) },
  { route: 'POST /api/telegram/link', request: () => ({ path: '/api/telegram/link' }), expect: signed(201) },
  { route: 'DELETE /api/telegram/link', request: () => ({ path: '/api/telegram/link' }), expect: signed(404) },
  { route: 'POST /api/telegram/webhook', request: () => ({ path: '/api/telegram/webhook', body: { update_id: 1 } }), expect: all(401) },
  // Sign-in with Discord and Steam (issue 60): anyone may start one and come back (a callback without its state is sent back to /login);
  // linking is a signed-in caller's own, and nobody here has linked anything to unlink.
  { route: 'GET /api/auth/providers', request: () => ({ path: '/api/auth/providers' }), expect: all(200) },
  { route: 'GET /api/auth/:provider/start', request: () => ({ path: '/api/auth/discord/start' }), expect: all(302) },
  { route: 'POST /api/auth/:provider/link', request: () => ({ path: '/api/auth/discord/link' }), expect: signed(200) },
  { route: 'GET /api/auth/:provider/callback', request: () => ({ path: '/api/auth/discord/callback?code=x' }), expect: all(302) },
  {
    route: 'POST /api/auth/oauth/session',
    request: () => ({ path: '/api/auth/oauth/session', body: { code: 'never-issued-code-0123456789' } }),
    expect: all(400),
  },
  { route: 'GET /api/users/me/links', request: () => ({ path: '/api/users/me/links' }), expect: signed(200) },
  { route: 'DELETE /api/users/me/links/:provider', request: () => ({ path: '/api/users/me/links/steam' }), expect: signed(404) },
];
