import { describe, expect, it } from 'vitest';
import { namesOf } from '../../src/components/stages/view.ts';
import { stageCreateInput, type StageMatchView } from '../../src/lib/api/stages.ts';
import {
  defaultStageForm,
  formFromPlan,
  gamesScore,
  matchBody,
  matchForm,
  settingsOf,
  stageBody,
  withComment,
  type MatchForm,
  type StageForm,
} from '../../src/islands/stages/form.ts';
import { scheduleInputValue, scheduleToIso } from '../../src/islands/stages/schedule.ts';
import { matchLabels, matchSections } from '../../src/islands/stages/sections.ts';
import { dropIndex, moveBy, moveItem, reconcileOrder } from '../../src/islands/stages/seeding.ts';
import { players, stageFixture } from '../support/stage-fixtures.ts';

/* The admin's stages modal (issue 21), its pure parts: the match list, the manual seeding list, the request bodies, the match time. */

const nothingPlayed = () => null;

describe('matchSections', () => {
  it('lists a round robin of 16 in 4 groups by group and round, every match labelled once and ready', () => {
    const sixteen = players(16);
    const stage = stageFixture('round_robin', sixteen, { settings: { groups: 4 }, decide: nothingPlayed });
    const sections = matchSections(stage, namesOf(sixteen));
    expect(sections.map((s) => s.title)).toEqual(['Група A', 'Група B', 'Група C', 'Група D']);
    // Four in a group: 3 rounds of 2 matches, everyone once per round.
    for (const section of sections) {
      expect(section.rounds.map((r) => [r.title, r.matches.length])).toEqual([
        ['Тур 1', 2],
        ['Тур 2', 2],
        ['Тур 3', 2],
      ]);
      for (const round of section.rounds) expect(new Set(round.matches.flatMap((m) => [m.match.a, m.match.b])).size).toBe(4);
    }
    const rows = sections.flatMap((s) => s.rounds.flatMap((r) => r.matches));
    expect(rows).toHaveLength(24);
    expect(rows[0]!.label).toBe('Група A · Тур 1, M1');
    expect(new Set(rows.map((r) => r.label)).size).toBe(24);
    expect(rows.every((r) => r.editable)).toBe(true);
    // Each group's matches are among its own members.
    for (const [g, section] of sections.entries()) {
      const members = new Set(stage.groups[g]!.participants);
      expect(section.rounds.flatMap((r) => r.matches).every((m) => members.has(m.match.a!) && members.has(m.match.b!))).toBe(true);
    }
    expect(matchLabels(sections).size).toBe(24);
  });

  it('leaves a single group untitled and numbers its rounds', () => {
    const four = players(4);
    const sections = matchSections(stageFixture('round_robin', four, { decide: nothingPlayed }), namesOf(four));
    expect(sections.map((s) => s.title)).toEqual([null]);
    expect(sections[0]!.rounds[0]!.matches[0]!.label).toBe('Тур 1, M1');
  });

  it('lists single elimination by round; a waiting match and a bye cannot be edited', () => {
    const three = players(3);
    const sections = matchSections(stageFixture('single_elimination', three, { decide: nothingPlayed }), namesOf(three));
    expect(sections.map((s) => s.title)).toEqual(['Сітка переможців']);
    const [semis, final] = sections[0]!.rounds;
    expect([semis!.title, final!.title]).toEqual(['Півфінал', 'Фінал']);
    // Three in application order fill four slots: P1 plays P2, P3 has the empty fourth slot (a bye).
    expect(semis!.matches.map((m) => [m.label, m.match.bye, m.editable])).toEqual([
      ['Півфінал, M1', false, true],
      ['Півфінал, M2', true, false],
    ]);
    expect(final!.matches.map((m) => [m.match.status, m.editable])).toEqual([['waiting', false]]);
  });

  it('keeps double elimination sides apart and a completed match editable', () => {
    const four = players(4);
    const stage = stageFixture('double_elimination', four, { settings: { grandFinal: 'simple' } });
    const sections = matchSections(stage, namesOf(four));
    expect(sections.map((s) => s.key)).toEqual(['winners', 'losers', 'grand_final']);
    const rows = sections.flatMap((s) => s.rounds.flatMap((r) => r.matches));
    expect(rows.every((r) => r.match.status === 'completed' && r.editable)).toBe(true);
    expect(new Set(rows.map((r) => r.label)).size).toBe(rows.length);
  });
});

describe('matchSections: GSL groups (issue 59)', () => {
  it('names each group’s five matches as the format does, the opening matches first', () => {
    const eight = players(8);
    const sections = matchSections(stageFixture('gsl', eight, { decide: nothingPlayed }), namesOf(eight));
    expect(sections.map((s) => s.title)).toEqual(['Група A', 'Група B']);
    for (const section of sections) {
      expect(section.rounds.map((r) => [r.title, r.matches.length])).toEqual([
        ['Стартові матчі', 2],
        ['Матч переможців', 1],
        ['Матч на виліт', 1],
        ['Вирішальний матч', 1],
      ]);
    }
    const rows = sections.flatMap((s) => s.rounds.flatMap((r) => r.matches));
    expect(rows.map((r) => r.label).slice(0, 5)).toEqual([
      'Група A · Стартові матчі, M1',
      'Група A · Стартові матчі, M2',
      'Група A · Матч переможців, M3',
      'Група A · Матч на виліт, M4',
      'Група A · Вирішальний матч, M5',
    ]);
    // Only the opening matches have both sides before anything is played.
    expect(rows.map((r) => r.editable)).toEqual([true, true, false, false, false, true, true, false, false, false]);
    expect(matchLabels(sections).size).toBe(10);
  });
});

describe('the manual seeding list', () => {
  const list = ['a', 'b', 'c', 'd'];

  it('moves one row up or down, and not past either end', () => {
    expect(moveBy(list, 2, -1)).toEqual({ list: ['a', 'c', 'b', 'd'], index: 1 });
    expect(moveBy(list, 0, 1)).toEqual({ list: ['b', 'a', 'c', 'd'], index: 1 });
    expect(moveBy(list, 0, -1)).toBeNull();
    expect(moveBy(list, 3, 1)).toBeNull();
    expect(list).toEqual(['a', 'b', 'c', 'd']);
  });

  it('moves a row anywhere (a drag), clamped to the list', () => {
    expect(moveItem(list, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(list, 0, 9)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('drops a dragged row after every other row whose middle the pointer passed', () => {
    const rows = [0, 50, 100, 150].map((top) => ({ top, height: 40 }));
    // Row 0 dragged to y = 130: past the middles of rows 1 (70) and 2 (120), not row 3 (170).
    expect(dropIndex(rows, 0, 130)).toBe(2);
    expect(moveItem(list, 0, dropIndex(rows, 0, 130))).toEqual(['b', 'c', 'a', 'd']);
    // Row 3 dragged above everything.
    expect(dropIndex(rows, 3, -5)).toBe(0);
    // Barely moved: stays.
    expect(dropIndex(rows, 1, 75)).toBe(1);
  });

  it('keeps the admin’s order as participants come and go: leavers drop out, newcomers join at the end', () => {
    expect(reconcileOrder(['c', 'a', 'b'], [{ _id: 'a' }, { _id: 'b' }, { _id: 'd' }])).toEqual(['a', 'b', 'd']);
    expect(reconcileOrder(['c', 'a', 'b'], [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }])).toEqual(['c', 'a', 'b']);
  });
});

describe('stageBody', () => {
  it('sends only the settings of the chosen format', () => {
    const form = { ...defaultStageForm(['p1', 'p2']), format: 'round_robin' as const, groups: 4, thirdPlace: true, grandFinal: 'none' as const, rounds: '3' };
    expect(stageBody(form)).toEqual({ ok: true, body: { format: 'round_robin', seeding: 'order', settings: { groups: 4 } } });
    expect(stageBody({ ...form, format: 'single_elimination', bestOf: 3, name: '  Плей-оф ' })).toEqual({
      ok: true,
      body: { format: 'single_elimination', name: 'Плей-оф', seeding: 'order', settings: { thirdPlace: true, bestOf: 3 } },
    });
    expect(stageBody({ ...form, format: 'double_elimination' })).toMatchObject({ body: { settings: { grandFinal: 'none' } } });
    expect(stageBody({ ...form, format: 'swiss', groups: 1 })).toMatchObject({ body: { settings: { rounds: 3 } } });
  });

  it('asks for a map veto when ticked (issue 58), keeping the sequences a plan brought, and for none otherwise', () => {
    const form = defaultStageForm(['p1', 'p2']);
    expect(stageBody({ ...form, veto: true })).toMatchObject({ ok: true, body: { settings: { veto: {} } } });
    const sequences = { '1': [{ action: 'ban' as const, by: 'A' as const }, { action: 'decider' as const }] };
    expect(stageBody({ ...form, veto: true, kept: { veto: { sequences } } })).toMatchObject({ body: { settings: { veto: { sequences } } } });
    const off = stageBody({ ...form, veto: false, kept: { veto: { sequences } } });
    expect(off.ok && 'veto' in (off.body.settings ?? {})).toBe(false);
  });

  it('sends the manual order only for manual seeding', () => {
    const form = { ...defaultStageForm(['p1', 'p2', 'p3']), order: ['p3', 'p1', 'p2'] };
    expect(stageBody({ ...form, seeding: 'manual' })).toMatchObject({ body: { seeding: 'manual', participants: ['p3', 'p1', 'p2'] } });
    const standard = stageBody({ ...form, seeding: 'standard' });
    expect(standard.ok && 'participants' in standard.body).toBe(false);
  });

  it('takes a playoff from an earlier stage without a seeding of its own (the server cross-seeds it)', () => {
    const form = { ...defaultStageForm(['p1']), seeding: 'manual' as const, fromStage: 's1', advance: 2 };
    expect(stageBody(form)).toEqual({ ok: true, body: { format: 'single_elimination', settings: {}, from: { stageId: 's1', advance: 2 } } });
    expect(stageBody({ ...form, advance: 0 })).toEqual({ ok: false, message: 'Вкажіть, скільки учасників проходить з кожної групи (щонайменше 1)' });
  });

  it('refuses a Swiss round count the API would refuse', () => {
    for (const rounds of ['0', '21', '2.5', 'два']) {
      expect(stageBody({ ...defaultStageForm(), format: 'swiss', rounds }).ok, rounds).toBe(false);
    }
  });
});

/** The body the form builds, checked by the API's own schema as the server would read it. */
function sent(form: StageForm) {
  const built = stageBody(form);
  if (!built.ok) throw new Error(built.message);
  const read = stageCreateInput.safeParse(built.body);
  expect(read.success, JSON.stringify(read.error?.issues)).toBe(true);
  return built.body;
}

describe('stageBody: Swiss with thresholds and GSL groups (issue 59)', () => {
  const swiss: StageForm = { ...defaultStageForm(['p1', 'p2']), format: 'swiss' };
  const thresholds: StageForm = { ...swiss, thresholds: true };

  it('sends the thresholds and the deciding matches’ best-of, 3, 3 and Bo3 unless changed', () => {
    expect(sent(thresholds)).toEqual({ format: 'swiss', seeding: 'order', settings: { winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 3 } });
    expect(sent({ ...thresholds, winsToAdvance: ' 2 ', lossesToEliminate: '4', decidingBestOf: 5, bestOf: 3 }).settings).toEqual({
      winsToAdvance: 2,
      lossesToEliminate: 4,
      decidingBestOf: 5,
      bestOf: 3,
    });
  });

  it('sends no rounds, points or tie-breakers with thresholds, which the API refuses, and shows no field for them', () => {
    const crowded: StageForm = { ...thresholds, rounds: '5', tieBreakers: ['wins', 'buchholz'], kept: { points: { win: 2, draw: 1, loss: 0 } } };
    expect(sent(crowded).settings).toEqual({ winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 3 });
    expect(settingsOf(crowded)).toMatchObject({ rounds: false, tieBreakers: false, thresholdFields: true, autoPair: true });
    // Without thresholds the same form sends them all again.
    expect(sent({ ...crowded, thresholds: false }).settings).toEqual({ rounds: 5, tieBreakers: ['wins', 'buchholz'], points: { win: 2, draw: 1, loss: 0 } });
    expect(settingsOf({ ...crowded, thresholds: false })).toMatchObject({ rounds: true, tieBreakers: true, thresholdFields: false });
  });

  it('refuses a threshold the API would refuse, before sending', () => {
    for (const wins of ['', '0', '6', '2.5', 'три', '-1']) {
      expect(stageBody({ ...thresholds, winsToAdvance: wins }), wins).toEqual({ ok: false, message: 'Пороги перемог і поразок — цілі числа від 1 до 5' });
      expect(stageBody({ ...thresholds, lossesToEliminate: wins }).ok, wins).toBe(false);
    }
    expect(stageBody({ ...thresholds, winsToAdvance: '5', lossesToEliminate: '1' }).ok).toBe(true);
  });

  it('sends nothing of the thresholds while the box is not ticked, or for another format', () => {
    expect(sent({ ...swiss, winsToAdvance: '2', decidingBestOf: 5 }).settings).toEqual({});
    for (const format of ['round_robin', 'gsl', 'single_elimination', 'double_elimination'] as const) {
      const settings = sent({ ...thresholds, autoPair: true, format }).settings ?? {};
      for (const key of ['winsToAdvance', 'lossesToEliminate', 'decidingBestOf', 'autoPair']) expect(settings, `${format} ${key}`).not.toHaveProperty(key);
    }
  });

  it('asks any Swiss stage to pair its rounds itself only when ticked', () => {
    expect(sent({ ...swiss, autoPair: true }).settings).toEqual({ autoPair: true });
    expect(sent({ ...thresholds, autoPair: true }).settings).toMatchObject({ autoPair: true, winsToAdvance: 3 });
    expect(sent(swiss).settings).not.toHaveProperty('autoPair');
  });

  it('lets the API share GSL groups (one per four) unless a count is chosen, and then sends even one', () => {
    const gsl: StageForm = { ...defaultStageForm(), format: 'gsl', groups: 4, doubleRound: true, rounds: '3', tieBreakers: ['wins'] };
    expect(sent(gsl)).toEqual({ format: 'gsl', seeding: 'order', settings: {} });
    expect(sent({ ...gsl, gslGroups: 1 }).settings).toEqual({ groups: 1 });
    expect(sent({ ...gsl, gslGroups: 3, bestOf: 3 }).settings).toEqual({ groups: 3, bestOf: 3 });
    expect(settingsOf(gsl)).toMatchObject({ gslGroups: true, groups: false, rounds: false, tieBreakers: false, thresholds: false, autoPair: false });
    // The GSL count is its own: a round robin keeps its groups.
    expect(sent({ ...gsl, gslGroups: 3, format: 'round_robin' }).settings).toMatchObject({ groups: 4 });
  });

  it('opens a plan’s Swiss with thresholds or GSL step as it was, and sends it back the same', () => {
    const thresholdStep = {
      name: 'Швейцарка',
      format: 'swiss' as const,
      seeding: 'rating' as const,
      settings: { winsToAdvance: 3, lossesToEliminate: 2, decidingBestOf: 3, autoPair: true },
    };
    expect(formFromPlan(thresholdStep, [])).toMatchObject({ thresholds: true, winsToAdvance: '3', lossesToEliminate: '2', decidingBestOf: 3, autoPair: true });
    expect(sent(formFromPlan(thresholdStep, [])).settings).toEqual(thresholdStep.settings);
    const gslStep = { name: 'Групи', format: 'gsl' as const, seeding: 'order' as const, settings: { groups: 2 } };
    expect(formFromPlan(gslStep, [])).toMatchObject({ gslGroups: 2, groups: 1 });
    expect(sent(formFromPlan(gslStep, [])).settings).toEqual({ groups: 2 });
  });
});

const match = (changes: Partial<StageMatchView> = {}): StageMatchView => ({
  _id: 'm1',
  stage: 's1',
  number: 1,
  bestOf: 1,
  from: { a: null, b: null },
  group: null,
  side: 'winners',
  round: 1,
  position: 1,
  a: 'p1',
  b: 'p2',
  scoreA: null,
  scoreB: null,
  games: [],
  winner: null,
  forfeit: null,
  status: 'ready',
  bye: false,
  scheduledAt: null,
  comment: '',
  version: 4,
  completedAt: null,
  reportState: null,
  ...changes,
});
/** The editor's form once it has read the match's comment (an empty public one). */
const form = (changes: Partial<MatchForm> = {}): MatchForm => ({ ...withComment(matchForm(match(), 1), { comment: '', commentPublic: true }), ...changes });
const single = { format: 'single_elimination' as const, bestOf: 1 };

describe('matchBody', () => {
  it('sends the scores with the version it was based on', () => {
    expect(matchBody(form({ scoreA: '16', scoreB: '12', comment: ' Overtime ' }), match(), single)).toEqual({
      ok: true,
      result: true,
      body: { version: 4, comment: 'Overtime', commentPublic: true, scheduledAt: null, scoreA: 16, scoreB: 12 },
    });
  });

  it('judges the result by the server’s rule and message before sending', () => {
    expect(matchBody(form({ scoreA: '1', scoreB: '1' }), match(), single)).toEqual({
      ok: false,
      message: 'Нічия можлива лише в круговій і швейцарській системах, але не зі швейцарськими порогами перемог і поразок',
    });
    expect(matchBody(form({ scoreA: '1', scoreB: '1' }), match(), { format: 'round_robin', bestOf: 1 }).ok).toBe(true);
    expect(matchBody(form({ scoreA: '1', scoreB: '1' }), match(), { format: 'swiss', bestOf: 1 }).ok).toBe(true);
    // A Swiss with thresholds (issue 59) has no draws: every match moves a record towards a threshold.
    expect(
      matchBody(form({ scoreA: '1', scoreB: '1' }), match(), { format: 'swiss', settings: { winsToAdvance: 3, lossesToEliminate: 3 }, bestOf: 1 }),
    ).toEqual({
      ok: false,
      message: 'Нічия можлива лише в круговій і швейцарській системах, але не зі швейцарськими порогами перемог і поразок',
    });
    expect(matchBody(form({ scoreA: '3', scoreB: '0' }), match(), { ...single, bestOf: 3 })).toEqual({
      ok: false,
      message: 'Рахунок не відповідає формату: матч до 2 перемог',
    });
    expect(matchBody(form({ scoreA: '2' }), match(), single)).toEqual({ ok: false, message: 'Вкажіть рахунок обох сторін' });
    expect(matchBody(form({ scoreA: '-1', scoreB: '2' }), match(), single)).toEqual({ ok: false, message: 'Рахунок — ціле число від 0 до 9999' });
  });

  it('makes the match score from the games of a best-of-3', () => {
    const bo3 = { ...single, bestOf: 3 };
    const games = [
      { a: '16', b: '10' },
      { a: '10', b: '16' },
      { a: '16', b: '3' },
    ];
    const typed = { ...matchForm(match(), 3), games };
    expect(gamesScore(typed)).toEqual({ a: 2, b: 1 });
    expect(matchBody(typed, match(), bo3)).toMatchObject({
      ok: true,
      body: {
        games: [
          { a: 16, b: 10 },
          { a: 10, b: 16 },
          { a: 16, b: 3 },
        ],
      },
    });
    expect(matchBody({ ...typed, games: [{ a: '16', b: '' }, ...games.slice(1)] }, match(), bo3)).toEqual({
      ok: false,
      message: 'Вкажіть рахунок гри для обох сторін',
    });
    expect(matchBody({ ...typed, games: [{ a: '16', b: '16' }, ...games.slice(1)] }, match(), bo3)).toEqual({
      ok: false,
      message: 'Гра не може завершитися внічию',
    });
  });

  it('sends a forfeit without scores', () => {
    expect(matchBody(form({ forfeit: 'b', scoreA: '7' }), match(), single)).toEqual({
      ok: true,
      result: true,
      body: { version: 4, comment: '', commentPublic: true, scheduledAt: null, forfeit: 'b' },
    });
  });

  it('saves only the time and comment of a ready match without scores, but a completed match keeps a result', () => {
    expect(matchBody(form({ scheduled: '2030-05-01T18:00', comment: 'Сцена' }), match(), single)).toEqual({
      ok: true,
      result: false,
      body: { version: 4, comment: 'Сцена', commentPublic: true, scheduledAt: '2030-05-01T18:00:00+03:00' },
    });
    expect(matchBody(form(), match({ status: 'completed', scoreA: 2, scoreB: 0, winner: 'p1' }), single)).toEqual({
      ok: false,
      message: 'Вкажіть рахунок обох сторін',
    });
  });

  it('sends the comment and whether everyone sees it only once the editor has read them (issue 57)', () => {
    // From a public read the comment may be one for the organisers only, shown as '': it is left alone.
    const unread = { ...matchForm(match(), 1), scoreA: '2', scoreB: '0' };
    expect(unread).toMatchObject({ comment: '', commentPublic: true, commentRead: false });
    expect(matchBody(unread, match(), single)).toEqual({ ok: true, result: true, body: { version: 4, scheduledAt: null, scoreA: 2, scoreB: 0 } });
    const read = withComment(unread, { comment: 'Попередження капітану', commentPublic: false });
    expect(matchBody(read, match(), single)).toEqual({
      ok: true,
      result: true,
      body: { version: 4, comment: 'Попередження капітану', commentPublic: false, scheduledAt: null, scoreA: 2, scoreB: 0 },
    });
    // An organiser's answer (the 409 of a stale save) carries it: the form has it at once.
    expect(matchForm(match({ comment: 'Лише нам', commentPublic: false }), 1)).toMatchObject({ comment: 'Лише нам', commentPublic: false, commentRead: true });
  });

  it('fills the editor from a stored result; a forfeit shows no score', () => {
    expect(matchForm(match({ status: 'completed', scoreA: 2, scoreB: 1, games: [{ a: 16, b: 3 }], winner: 'p1' }), 3)).toMatchObject({
      scoreA: '2',
      scoreB: '1',
      games: [
        { a: '16', b: '3' },
        { a: '', b: '' },
        { a: '', b: '' },
      ],
    });
    expect(matchForm(match({ status: 'completed', scoreA: 0, scoreB: 0, forfeit: 'a', winner: 'p2' }), 1)).toMatchObject({
      scoreA: '',
      scoreB: '',
      forfeit: 'a',
    });
  });
});

describe('the match time', () => {
  it('reads the input as Kyiv time and sends it with Kyiv’s offset of that day', () => {
    // Summer (EEST, +03:00) and winter (EET, +02:00).
    expect(scheduleToIso('2030-05-01T18:00')).toBe('2030-05-01T18:00:00+03:00');
    expect(Date.parse(scheduleToIso('2030-05-01T18:00')!)).toBe(Date.parse('2030-05-01T15:00:00Z'));
    expect(scheduleToIso('2030-01-15T09:30')).toBe('2030-01-15T09:30:00+02:00');
  });

  it('clears with an empty input and refuses a time that does not exist', () => {
    expect(scheduleToIso('')).toBeNull();
    expect(scheduleToIso('завтра')).toBeUndefined();
    // Clocks go from 03:00 to 04:00 in Kyiv on 31 March 2030.
    expect(scheduleToIso('2030-03-31T03:30')).toBeUndefined();
    expect(scheduleToIso('2030-02-30T10:00')).toBeUndefined();
  });

  it('shows a stored moment in Kyiv time, and reads it back the same', () => {
    expect(scheduleInputValue('2030-05-01T15:00:00.000Z')).toBe('2030-05-01T18:00');
    expect(scheduleInputValue(null)).toBe('');
    for (const value of ['2030-05-01T18:00', '2030-12-31T23:59', '2030-10-27T02:30']) expect(scheduleInputValue(scheduleToIso(value)!)).toBe(value);
  });
});
