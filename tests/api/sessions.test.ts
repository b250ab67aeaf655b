// Sessions held between requests (decision 026): looked up once, forgotten by every write that
// may change a session or a user, never honoured past their own end nor past the hold.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../src/server/db/schema/index.ts';
import { forgetHeldSessions, SESSION_HOLD_MS } from '../../src/server/services/accounts/held-sessions.ts';
import { findSession } from '../../src/server/services/accounts/sessions.ts';
import { team, useTestApi } from '../support/builders.ts';

const api = useTestApi();

/** How many times `queries` looked a session up. */
const lookups = (queries: string[]) => queries.filter((query) => query.includes('from "sessions"')).length;
const me = (token: string) => api.queriesOf(() => api.call<{ locale?: string }>('GET', '/api/users/me', { token }));

describe('sessions held between requests', () => {
  it('looks a session up once, then answers from what it holds, the same', async () => {
    const player = await api.signedIn();
    forgetHeldSessions();
    const first = await me(player.token);
    expect(first.result.status).toBe(200);
    expect(lookups(first.queries)).toBe(1);
    const second = await me(player.token);
    expect(second.result.status).toBe(200);
    expect(lookups(second.queries)).toBe(0);
    expect(second.result.body).toEqual(first.result.body);
    // A token nobody has is looked up every time: nothing is held for it.
    for (let i = 0; i < 2; i++) {
      const stranger = await me('not-a-session-token');
      expect(stranger.result.status).toBe(401);
      expect(lookups(stranger.queries)).toBe(1);
    }
  });

  it('keeps them through a chat message, forgets them after a write that changes a user, and not after a refused one', async () => {
    const captain = await api.signedIn();
    const squad = await team(api, captain, 2);
    await me(captain.token);
    const posted = await api.call('POST', `/api/team/${squad.id}/chat`, { token: captain.token, body: { message: 'на зв’язку' } });
    expect(posted.status).toBe(201);
    expect(lookups((await me(captain.token)).queries)).toBe(0);

    const refused = await api.call('PUT', '/api/users/me/locale', { token: captain.token, body: { locale: 'fr' } });
    expect(refused.status).toBe(400);
    expect(lookups((await me(captain.token)).queries)).toBe(0);

    const saved = await api.call('PUT', '/api/users/me/locale', { token: captain.token, body: { locale: 'en' } });
    expect(saved.status).toBe(200);
    const after = await me(captain.token);
    expect(lookups(after.queries)).toBe(1);
  });

  it('refuses a signed-out token at once, though it was held', async () => {
    const player = await api.signedIn();
    expect((await me(player.token)).result.status).toBe(200);
    expect(lookups((await me(player.token)).queries)).toBe(0);
    expect((await api.call('POST', '/api/auth/logout', { token: player.token })).status).toBe(200);
    expect((await me(player.token)).result.status).toBe(401);
  });

  it('honours a held session no longer than the hold, nor past its own end', async () => {
    const player = await api.signedIn();
    const now = Date.now();
    forgetHeldSessions();
    expect(await findSession(api.db, player.token, now)).not.toBeNull();
    const within = await api.queriesOf(() => findSession(api.db, player.token, now + SESSION_HOLD_MS - 1));
    expect(lookups(within.queries)).toBe(0);
    const past = await api.queriesOf(() => findSession(api.db, player.token, now + SESSION_HOLD_MS));
    expect(lookups(past.queries)).toBe(1);

    // A session that ends within the hold is held only until it ends.
    await api.db.update(sessions).set({ expiresAt: new Date(now + 1_000) }).where(eq(sessions.userId, player.user.id));
    forgetHeldSessions();
    expect(await findSession(api.db, player.token, now)).not.toBeNull();
    expect(await findSession(api.db, player.token, now + 1_000)).toBeNull();
  });

  it('does not hold what a lookup read while a write forgot the held sessions', async () => {
    const player = await api.signedIn();
    forgetHeldSessions();
    let locked!: () => void;
    const isLocked = new Promise<void>((done) => (locked = done));
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    // The sessions are locked, so the lookup below waits for the database until the write's forgetting.
    const writing = api.db.transaction(async (tx) => {
      await tx.execute(sql`lock table sessions in access exclusive mode`);
      locked();
      await released;
    });
    await isLocked;
    const reading = findSession(api.db, player.token);
    forgetHeldSessions();
    release();
    await writing;
    expect(await reading).not.toBeNull();
    const next = await api.queriesOf(() => findSession(api.db, player.token));
    expect(lookups(next.queries)).toBe(1);
  });
});
