import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TournamentCard } from '../../src/islands/tournaments/TournamentCard.tsx';
import type { Tournament } from '../../src/lib/api/tournaments.ts';
import { tournamentView } from '../support/tournament-view.ts';

/* A tournament card offers «Подати заявку» only while the tournament takes applications (issue 57). */

const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
const card = (changes: Partial<Tournament> = {}): Tournament => tournamentView({ date: at(48), ...changes });
const button = (tournament: Tournament) => {
  const html = renderToStaticMarkup(createElement(TournamentCard, { tournament }));
  return /aria-label="([^:"]+):/.exec(html)?.[1];
};

describe('TournamentCard', () => {
  it('offers to apply while registration is open', () => {
    expect(button(card())).toBe('Подати заявку');
    expect(button(card({ registrationOpensAt: at(-24), registrationClosesAt: at(24) }))).toBe('Подати заявку');
  });

  it('offers the details once registration closed, before it opens, or the tournament started', () => {
    expect(button(card({ registrationClosesAt: at(-1) }))).toBe('Детальніше');
    expect(button(card({ registrationOpensAt: at(12) }))).toBe('Детальніше');
    expect(button(card({ status: 'started' }))).toBe('Детальніше');
  });

  it('writes the date as SPEC §2 asks, YYYY-MM-DD', () => {
    const html = renderToStaticMarkup(createElement(TournamentCard, { tournament: card({ date: '2026-12-21T15:00:00.000Z' }) }));
    expect(html).toMatch(/>2026-12-21<\/time>/);
  });
});
