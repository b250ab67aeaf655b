import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { MatchTime } from '../../src/components/MatchTime.tsx';
import { formatMatchTime } from '../../src/components/match-time.ts';
import { CheckInList, MyMatchList } from '../../src/components/MyMatchesView.tsx';
import { namesOf } from '../../src/components/stages/view.ts';
import { scheduleRounds, scheduleToIso } from '../../src/islands/stages/schedule.ts';
import { matchSections } from '../../src/islands/stages/sections.ts';
import type { MyCheckInTournament, MyMatch } from '../../src/lib/api/schedule.ts';
import { myMatchStep } from '../../src/lib/domain/my-matches.ts';
import { setLocaleResolver } from '../../src/lib/i18n/index.ts';
import { players, stageFixture } from '../support/stage-fixtures.ts';

/**
 * The match-day UI's own rules (issue 22): what «Мої матчі» offers on each match, how it draws the
 * next match and the check-ins, the admin schedule form's start in the admin's zone and its rounds,
 * and the server-side match time with its Kyiv mark.
 */

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function myMatch(overrides: Partial<MyMatch> = {}): MyMatch {
  return {
    _id: 'm1',
    tournament: { _id: 't1', title: 'Кубок Дніпра', soloOnly: true },
    stage: 's1',
    group: null,
    side: 'winners',
    round: 1,
    me: { _id: 'u1', name: 'KozakSniper', image: null, slot: 'a' },
    opponent: { _id: 'u2', name: 'OdesaWave', image: null },
    scheduledAt: '2031-06-01T15:00:00.000Z',
    status: 'ready',
    reportState: null,
    reportedBy: null,
    canReport: true,
    checkIn: null,
    ...overrides,
  };
}

afterEach(() => {
  setLocaleResolver(() => 'uk');
  delete process.env.TZ;
});

describe('what «Мої матчі» offers on a match', () => {
  it('a ready match unreported: the player or captain reports; a team member who is not the captain is offered nothing', () => {
    expect(myMatchStep(myMatch())).toBe('report');
    expect(myMatchStep(myMatch({ canReport: false }))).toBeNull();
  });
  it('the reporter waits; the other side answers (only whoever may act for it); a dispute is the admin’s', () => {
    expect(myMatchStep(myMatch({ reportState: 'reported', reportedBy: 'a' }))).toBe('waiting');
    expect(myMatchStep(myMatch({ reportState: 'reported', reportedBy: 'a', canReport: false }))).toBe('waiting');
    expect(myMatchStep(myMatch({ reportState: 'reported', reportedBy: 'b' }))).toBe('answer');
    expect(myMatchStep(myMatch({ reportState: 'reported', reportedBy: 'b', canReport: false }))).toBeNull();
    expect(myMatchStep(myMatch({ reportState: 'disputed', reportedBy: 'b' }))).toBe('disputed');
  });
  it('a match still waiting for its sides offers nothing', () => {
    expect(myMatchStep(myMatch({ status: 'waiting', opponent: null }))).toBeNull();
  });
});

describe('the list of my matches', () => {
  const later = myMatch({ _id: 'm2', status: 'waiting', opponent: null, scheduledAt: null, round: 2 });

  it('draws the next match first with its opponent, tournament, time in the reader’s zone, the report link and the match page; then the rest', () => {
    const html = renderToStaticMarkup(createElement(MyMatchList, { matches: [myMatch(), later], timeZone: 'America/New_York' }));
    const shown = text(html);
    expect(shown.indexOf('Наступний матч')).toBeLessThan(shown.indexOf('Далі'));
    expect(shown).toContain('проти OdesaWave');
    expect(shown).toContain('Кубок Дніпра');
    // 15:00 UTC is 11:00 in New York in June (18:00 in Kyiv).
    expect(shown).toContain('1 червня 2031 р. о 11:00');
    expect(html).toMatch(/datetime="2031-06-01T15:00:00.000Z"/i);
    expect(html.match(/href="\/matches\/m1"/g)).toHaveLength(2);
    expect(shown).toContain('Звітувати');
    // The later match: opponent unknown, no time yet, no report link.
    expect(shown).toContain('суперник ще невідомий');
    expect(shown).toContain('час ще не призначено');
    expect(shown.match(/Звітувати/g)).toHaveLength(1);
  });

  it('in English, and for the opponent’s report, the answer link', () => {
    setLocaleResolver(() => 'en');
    const html = renderToStaticMarkup(
      createElement(MyMatchList, { matches: [myMatch({ reportState: 'reported', reportedBy: 'b' })], timeZone: 'Europe/Kyiv' }),
    );
    expect(text(html)).toContain('vs OdesaWave');
    expect(text(html)).toContain('1 June 2031 at 18:00');
    expect(text(html)).toContain('Confirm or dispute');
  });

  it('says so when there are no matches', () => {
    expect(text(renderToStaticMarkup(createElement(MyMatchList, { matches: [], timeZone: 'UTC' })))).toBe('Найближчих матчів немає.');
  });
});

describe('check-in', () => {
  const open: MyCheckInTournament = {
    opensAt: '2031-06-01T14:00:00.000Z',
    closesAt: '2031-06-01T14:50:00.000Z',
    open: true,
    checkedIn: false,
    canCheckIn: true,
    tournament: { _id: 't1', title: 'Кубок Дніпра', date: '2031-06-01T15:00:00.000Z' },
    team: null,
  };
  const render = (checkIns: MyCheckInTournament[]) =>
    text(renderToStaticMarkup(createElement(CheckInList, { checkIns, timeZone: 'Europe/Kyiv', busy: null, problem: null, onToggle: () => {} })));

  it('shows the window’s close time and the button; once checked in, the state and the undo', () => {
    expect(render([open])).toContain('Підтвердження участі в «Кубок Дніпра» — до 1 червня 2031 р. о 17:50');
    expect(render([open])).toContain('Підтвердити участь');
    const done = render([{ ...open, checkedIn: true }]);
    expect(done).toContain('Участь підтверджено');
    expect(done).toContain('Скасувати підтвердження');
  });

  it('a team member who is not the captain gets the note instead of the button; nothing is drawn without open check-ins', () => {
    const member = render([{ ...open, canCheckIn: false, team: { _id: 'team', name: 'Cyborgs' } }]);
    expect(member).toContain('Участь команди підтверджує капітан');
    expect(member).not.toContain('Підтвердити участь');
    expect(render([])).toBe('');
  });
});

describe('the admin schedule form', () => {
  it('sends the start as the screen’s zone reads it, with that zone’s offset at that moment', () => {
    expect(scheduleToIso('2031-06-01T18:00', 'America/New_York')).toBe('2031-06-01T18:00:00-04:00');
    expect(scheduleToIso('2031-01-15T18:00', 'America/New_York')).toBe('2031-01-15T18:00:00-05:00');
    expect(scheduleToIso('2031-06-01T18:00', 'Asia/Kolkata')).toBe('2031-06-01T18:00:00+05:30');
    expect(scheduleToIso('2031-06-01T18:00', 'UTC')).toBe('2031-06-01T18:00:00+00:00');
  });

  it('refuses an unreadable start, a day that rolls over and a wall time the zone skips', () => {
    for (const value of ['завтра', '2031-06-31T18:00', '2031-03-30T03:30']) expect(scheduleToIso(value, 'Europe/Kyiv'), value).toBeUndefined();
    // New York's clocks skip 02:00–03:00 on 9 March 2031, Kyiv's do not.
    expect(scheduleToIso('2031-03-09T02:30', 'America/New_York')).toBeUndefined();
    expect(scheduleToIso('2031-03-09T02:30', 'Europe/Kyiv')).toBe('2031-03-09T02:30:00+02:00');
  });

  it('lists an elimination stage’s rounds by bracket side, and each group’s rounds of a split round robin', () => {
    const eight = players(8);
    const double = stageFixture('double_elimination', eight, { decide: () => null });
    const rounds = scheduleRounds(matchSections(double, namesOf(eight)));
    expect(rounds[0]).toMatchObject({ round: 1, side: 'winners' });
    expect(rounds.some((r) => r.side === 'losers' && r.round === 1)).toBe(true);
    expect(rounds.some((r) => r.side === 'grand_final')).toBe(true);
    expect(new Set(rounds.map((r) => r.key)).size).toBe(rounds.length);

    const groups = stageFixture('round_robin', eight, { settings: { groups: 2 }, decide: () => null });
    const grouped = scheduleRounds(matchSections(groups, namesOf(eight)));
    expect(grouped[0]).toMatchObject({ round: 1, group: 1 });
    expect(grouped[0]!.title).toMatch(/Група A/);
    expect(grouped.some((r) => r.group === 2)).toBe(true);
  });
});

describe('a match time on a server-rendered page', () => {
  it('is Kyiv’s, marked as such, with the moment in datetime for the browser to rewrite', () => {
    const html = renderToStaticMarkup(createElement(MatchTime, { iso: '2031-06-01T15:00:00.000Z' }));
    expect(html).toMatch(/datetime="2031-06-01T15:00:00.000Z"/i);
    expect(html).toContain('data-local-time');
    expect(text(html)).toBe(`${formatMatchTime('2031-06-01T15:00:00.000Z')} (за Києвом)`);
    expect(text(html)).toContain('18:00');
  });
});

describe('the schedule form’s rounds of a single elimination', () => {
  it('are named by their round alone', () => {
    const four = players(4);
    const stage = stageFixture('single_elimination', four, { decide: () => null });
    expect(scheduleRounds(matchSections(stage, namesOf(four))).map((r) => [r.title, r.round, r.side])).toEqual([
      ['Півфінал', 1, 'winners'],
      ['Фінал', 2, 'winners'],
    ]);
  });
});
