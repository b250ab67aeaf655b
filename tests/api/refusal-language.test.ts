import { beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/lib/i18n/index.ts';
import { useTestApi } from '../support/builders.ts';

// A schema's refusal is written when the request is validated, in the reader's language: a text
// taken once when the module loads would answer every reader in Ukrainian.

const api = useTestApi();
let admin: string;
let player: string;

beforeAll(async () => {
  admin = (await api.signedIn('admin')).token;
  player = (await api.signedIn('user')).token;
});

const cases = [
  {
    what: 'a nickname with a space',
    method: 'POST',
    path: '/api/auth/register',
    body: { username: 'bad name', email: 'lang@example.test', password: 'long-enough-1' },
    key: 'validation.invalidUsername',
  },
  { what: 'a game picture that is not a link', method: 'POST', path: '/api/games', token: () => admin, body: { name: 'Мовна гра', image: 'ftp://x' }, key: 'image.invalid' },
  { what: 'a team without a name', method: 'POST', path: '/api/teams', token: () => player, body: { name: '   ' }, key: 'team.enterName' },
  { what: 'a team logo that is not a web link', method: 'POST', path: '/api/teams', token: () => player, body: { name: 'Мовна команда', logoUrl: 'ftp://x' }, key: 'team.logoNotHttp' },
  { what: 'an unknown tournament status', method: 'GET', path: '/api/tournaments?status=bogus', key: 'tournament.invalidStatus' },
  { what: 'a history cursor that is not a time', method: 'GET', path: `/api/stats/matches/player/${crypto.randomUUID()}?before=yesterday`, key: 'matchHistory.badBefore' },
] as const;

describe('schema refusals follow the reader’s language', () => {
  for (const c of cases) {
    it(`for ${c.what}`, async () => {
      for (const locale of ['en', 'uk'] as const) {
        const res = await api.call<{ message: string }>(c.method, c.path, {
          headers: { cookie: `lang=${locale}` },
          ...('body' in c ? { body: c.body } : {}),
          ...('token' in c ? { token: c.token() } : {}),
        });
        expect(res.status).toBe(400);
        expect(res.body.message).toContain(translate(locale, c.key));
      }
    });
  }
});
