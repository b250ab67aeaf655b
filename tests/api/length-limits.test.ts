import { beforeAll, describe, expect, it } from 'vitest';
import type { TeamMessage } from '../../src/lib/api/teams.ts';
import { useTestApi } from '../support/builders.ts';

// Every field with a length limit refuses a longer value with 400 and a sentence that names the
// limit, in the reader's language (the `lang` cookie), so a form's reader learns how much fits.

const api = useTestApi();
let admin: string;
let player: string;
let captain: string;
let teamId: string;
let gameId: string;
let tournamentId: string;

beforeAll(async () => {
  admin = (await api.signedIn('admin')).token;
  player = (await api.signedIn('user')).token;
  captain = (await api.signedIn('user')).token;
  teamId = (await api.call<TeamMessage>('POST', '/api/teams', { token: captain, body: { name: 'Довгі тексти' } })).body.team._id;
  gameId = (await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: admin, body: { name: 'Гра з лімітами' } })).body.game._id;
  tournamentId = (
    await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', { token: admin, body: { title: 'Турнір з лімітами', date: '2030-05-01', game: gameId } })
  ).body.tournament._id;
});

const long = (n: number) => 'я'.repeat(n);
const link = (n: number) => `https://example.com/${'a'.repeat(n - 20)}`;
const registration = { username: 'limits_user', email: 'limits@example.test', password: 'long-enough-1' };

interface Case {
  field: string;
  method: string;
  path: () => string;
  token?: () => string;
  body: () => Record<string, unknown>;
  uk: string;
  en: string;
}

const cases: Case[] = [
  {
    field: 'nickname (registration)',
    method: 'POST',
    path: () => '/api/auth/register',
    body: () => ({ ...registration, username: long(33) }),
    uk: 'Поле «Нікнейм» задовге (не більше 32 символів)',
    en: 'The field "Nickname" is too long (at most 32 characters)',
  },
  {
    field: 'password (registration)',
    method: 'POST',
    path: () => '/api/auth/register',
    body: () => ({ ...registration, password: 'x'.repeat(129) }),
    uk: 'Поле «Пароль» задовге (не більше 128 символів)',
    en: 'The field "Password" is too long (at most 128 characters)',
  },
  {
    field: 'nickname or email (login)',
    method: 'POST',
    path: () => '/api/auth/login',
    body: () => ({ loginOrEmail: long(255), password: 'x' }),
    uk: 'Поле «Нікнейм або email» задовге (не більше 254 символів)',
    en: 'The field "Nickname or email" is too long (at most 254 characters)',
  },
  {
    field: 'nickname (profile)',
    method: 'PUT',
    path: () => '/api/cabinet/me',
    token: () => player,
    body: () => ({ username: long(33) }),
    uk: 'Поле «Нікнейм» задовге (не більше 32 символів)',
    en: 'The field "Nickname" is too long (at most 32 characters)',
  },
  {
    field: 'team name',
    method: 'POST',
    path: () => '/api/teams',
    token: () => player,
    body: () => ({ name: long(41) }),
    uk: 'Назва команди задовга (не більше 40 символів)',
    en: 'The team name is too long (at most 40 characters)',
  },
  {
    field: 'team logo link',
    method: 'POST',
    path: () => '/api/teams',
    token: () => player,
    body: () => ({ name: 'Лого', logoUrl: link(501) }),
    uk: 'Посилання на зображення задовге (не більше 500 символів)',
    en: 'The image link is too long (at most 500 characters)',
  },
  {
    field: 'invited nickname or email',
    method: 'POST',
    path: () => `/api/teams/${teamId}/invite`,
    token: () => captain,
    body: () => ({ query: long(255) }),
    uk: 'Нік або email задовгий (не більше 254 символів)',
    en: 'The nickname or email is too long (at most 254 characters)',
  },
  {
    field: 'co-organiser nickname or email (issue 23)',
    method: 'POST',
    path: () => `/api/tournaments/${tournamentId}/staff`,
    token: () => admin,
    body: () => ({ user: long(255) }),
    uk: 'Нікнейм або email — не довше 254 символів',
    en: 'A nickname or email is at most 254 characters',
  },
  {
    field: 'chat message',
    method: 'POST',
    path: () => `/api/team/${teamId}/chat`,
    token: () => captain,
    body: () => ({ message: long(1001) }),
    uk: 'Повідомлення задовге (не більше 1000 символів)',
    en: 'The message is too long (at most 1000 characters)',
  },
  {
    field: 'news title',
    method: 'POST',
    path: () => '/api/news',
    token: () => admin,
    body: () => ({ title: long(201), content: 'Текст' }),
    uk: 'Поле «Назва» задовге (не більше 200 символів)',
    en: 'The field "Title" is too long (at most 200 characters)',
  },
  {
    field: 'news text',
    method: 'POST',
    path: () => '/api/news',
    token: () => admin,
    body: () => ({ title: 'Новина', content: long(20_001) }),
    uk: 'Поле «Текст» задовге (не більше 20000 символів)',
    en: 'The field "Text" is too long (at most 20000 characters)',
  },
  {
    field: 'tournament title',
    method: 'POST',
    path: () => '/api/tournaments',
    token: () => admin,
    body: () => ({ title: long(121), date: '2031-01-01', game: gameId }),
    uk: 'Поле «Назва» задовге (не більше 120 символів)',
    en: 'The field "Title" is too long (at most 120 characters)',
  },
  {
    field: 'tournament description',
    method: 'POST',
    path: () => '/api/tournaments',
    token: () => admin,
    body: () => ({ title: 'Турнір', date: '2031-01-01', game: gameId, description: long(5001) }),
    uk: 'Поле «Опис» задовге (не більше 5000 символів)',
    en: 'The field "Description" is too long (at most 5000 characters)',
  },
  {
    field: 'tournament picture',
    method: 'POST',
    path: () => '/api/tournaments',
    token: () => admin,
    body: () => ({ title: 'Турнір', date: '2031-01-01', game: gameId, image: link(2001) }),
    uk: 'Поле «Зображення» задовге (не більше 2000 символів)',
    en: 'The field "Image" is too long (at most 2000 characters)',
  },
  {
    field: 'game name',
    method: 'POST',
    path: () => '/api/games',
    token: () => admin,
    body: () => ({ name: long(61) }),
    uk: 'Поле «Назва» задовге (не більше 60 символів)',
    en: 'The field "Name" is too long (at most 60 characters)',
  },
];

describe('a value longer than its field takes', () => {
  for (const { field, method, path, token, body, uk, en } of cases) {
    it(`is refused with the limit named: ${field}`, async () => {
      const ukrainian = await api.call<{ message: string }>(method, path(), { body: body(), ...(token ? { token: token() } : {}) });
      expect(ukrainian.status).toBe(400);
      expect(ukrainian.body.message).toBe(uk);
      const english = await api.call<{ message: string }>(method, path(), { body: body(), headers: { cookie: 'lang=en' }, ...(token ? { token: token() } : {}) });
      expect(english.status).toBe(400);
      expect(english.body.message).toBe(en);
    });
  }
});
