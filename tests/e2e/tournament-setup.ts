import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import type { Bracket } from '../../src/lib/domain/bracket.ts';
import { DEMO_PASSWORD } from '../../src/server/db/seed.ts';

/** Sessions and tournaments of their own for browser tests, made through the API. */

/** A session token of a demo player (or of anyone, given the password), from POST /api/auth/login. */
export async function tokenOf(request: APIRequestContext, loginOrEmail: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await request.post('/api/auth/login', { data: { loginOrEmail, password } });
  expect(response.status(), loginOrEmail).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export type BracketAnswer = { bracket: Bracket; version: number; participants: { _id: string; name: string }[] };

/**
 * A new pending solo tournament of its own (so tests never share a bracket) with these demo
 * players applied and approved in this order, and unless told otherwise its bracket drawn in
 * application order (which starts it). It is a League of Legends one: other browser tests count
 * the CS2 cards.
 */
export async function soloTournamentWithBracket(request: APIRequestContext, players: string[], { draw = true } = {}) {
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const games = (await (await request.get('/api/games')).json()) as { _id: string; name: string }[];
  const game = games.find((g) => g.name === 'League of Legends')!;
  const title = `Сітка ${randomUUID().slice(0, 8)}`;
  const created = await request.post('/api/tournaments', {
    headers: bearer(admin),
    data: { title, date: '2031-06-01', game: game._id, soloOnly: true, description: 'Турнір для перевірки сітки.' },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  const ids: Record<string, string> = {};
  for (const nick of players) {
    const applied = await request.post('/api/applications', { headers: bearer(await tokenOf(request, nick)), data: { tournament: id } });
    expect(applied.status(), nick).toBe(201);
    const application = ((await applied.json()) as { application: { _id: string; user: { _id: string } } }).application;
    ids[nick] = application.user._id;
    const approved = await request.patch(`/api/applications/${application._id}/status`, { headers: bearer(admin), data: { status: 'approved' } });
    expect(approved.ok()).toBe(true);
  }
  let drawn: BracketAnswer = { bracket: [], version: 0, participants: [] };
  if (draw) {
    const response = await request.post(`/api/tournaments/${id}/bracket`, { headers: bearer(admin), data: {} });
    expect(response.status()).toBe(201);
    drawn = (await response.json()) as BracketAnswer;
  }
  return { id, title, admin, ids, drawn };
}

/**
 * A final of its own between two demo players (the first seeded higher) with a map veto (issue 58):
 * a solo tournament of `game` (which has its pool) with `settings` (its check-in per match), both
 * applied and approved, and a single elimination best of `bestOf` that vetoes. Returns the match
 * and the players' tokens.
 */
export async function vetoFinal(
  request: APIRequestContext,
  admin: string,
  options: { title: string; game: string; bestOf: number; players: [string, string]; settings?: Record<string, unknown> },
) {
  const created = await request.post('/api/tournaments', {
    headers: bearer(admin),
    data: { title: options.title, date: '2031-06-01T16:00:00Z', game: options.game, soloOnly: true, ...options.settings },
  });
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  const tokens: Record<string, string> = {};
  for (const nick of options.players) {
    tokens[nick] = await tokenOf(request, nick);
    const applied = await request.post('/api/applications', { headers: bearer(tokens[nick]!), data: { tournament: id } });
    const application = ((await applied.json()) as { application: { _id: string } }).application._id;
    expect((await request.patch(`/api/applications/${application}/status`, { headers: bearer(admin), data: { status: 'approved' } })).ok()).toBe(true);
  }
  const made = await request.post(`/api/tournaments/${id}/stages`, {
    headers: bearer(admin),
    data: { format: 'single_elimination', seeding: 'order', settings: { bestOf: options.bestOf, veto: {} } },
  });
  expect(made.status()).toBe(201);
  const matchId = ((await made.json()) as { stage: { matches: { _id: string }[] } }).stage.matches[0]!._id;
  return { id, matchId, tokens };
}
