import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TournamentForm } from '../../src/components/TournamentForm.tsx';
import type { Tournament } from '../../src/lib/api/tournaments.ts';
import { tournamentView } from '../support/tournament-view.ts';

/* The tournament form offers a status only when editing: a new tournament starts pending (issue 57). */

const started: Tournament = tournamentView({ status: 'started' });

const form = (tournament?: Tournament) =>
  renderToStaticMarkup(
    createElement(TournamentForm, {
      games: [{ _id: 'g1', name: 'CS2', image: null }],
      busy: false,
      onSubmit: async () => true,
      onInvalid: () => {},
      ...(tournament ? { tournament } : {}),
    }),
  );

describe('TournamentForm', () => {
  it('creates without a status choice, saying the status starts as «Очікує»', () => {
    const html = form();
    expect(html).not.toContain('name="status"');
    expect(html).not.toContain('Розпочато');
    expect(html).not.toContain('Завершено');
    expect(html).toContain('Статус спершу «Очікує»');
  });

  it('edits with every status offered and the current one chosen', () => {
    const html = form(started);
    const select = /<select id="edit-t1-status" name="status"[^>]*>(.*?)<\/select>/.exec(html)?.[1] ?? '';
    expect([...select.matchAll(/<option value="(\w+)"/g)].map((m) => m[1])).toEqual(['pending', 'started', 'finished']);
    expect(select).toMatch(/<option value="started" selected="">Розпочато<\/option>/);
    expect(html).not.toContain('Статус спершу');
  });

  it('offers a time zone of its own (issue 57), the current one chosen and its dates on its clock', () => {
    const html = form({ ...started, timeZone: 'Europe/Warsaw', date: '2031-06-01T16:00:00.000Z' });
    const zones = /<select id="edit-t1-zone"[^>]*>(.*?)<\/select>/.exec(html)?.[1] ?? '';
    expect(zones).toMatch(/^<option value="">Кожен бачить свій час<\/option>/);
    expect(zones).toMatch(/<option value="Europe\/Warsaw" selected="">Europe\/Warsaw — за центральноєвропейським часом<\/option>/);
    expect(html).toContain('Дата й час (за центральноєвропейським часом)');
    expect(html).toContain('value="2031-06-01T18:00"');
    expect(form()).toContain('Дата й час (за Києвом)');
  });

  it('offers who starts the map veto (issue 58): the higher seed unless the tournament chose the coin toss', () => {
    const starter = (html: string) => /<select id="[^"]+-veto-starter" name="vetoStarter"[^>]*>(.*?)<\/select>/.exec(html)?.[1] ?? '';
    expect(starter(form())).toMatch(/<option value="higherSeed" selected="">Вища сіяна сторона<\/option><option value="coinToss">Жереб сервера<\/option>/);
    expect(starter(form({ ...started, vetoStarter: 'coinToss' }))).toMatch(/<option value="coinToss" selected="">/);
  });

  it('offers a map pool of its own (issue 58), empty for the game’s, and its check-in per match and lobby host', () => {
    const pool = (html: string) => /<textarea[^>]*name="maps"[^>]*>(.*?)<\/textarea>/s.exec(html)?.[1];
    expect(pool(form())).toBe('');
    expect(pool(form({ ...started, maps: ['Mirage', 'Dust II'] }))).toBe('Mirage\nDust II');
    expect(form()).toContain('Власний пул карт (по одній у рядку)');
    const own = form({ ...started, matchCheckInMinutes: 10, lobbyHost: 'higherSeed' });
    expect(own).toMatch(/name="matchCheckInMinutes"[^>]*value="10"|value="10"[^>]*name="matchCheckInMinutes"/);
    expect(/<select id="[^"]+-lobby-host" name="lobbyHost"[^>]*>(.*?)<\/select>/.exec(own)?.[1]).toMatch(/<option value="higherSeed" selected="">/);
  });
});
