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
});
