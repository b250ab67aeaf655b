import type { MatchComment, MatchUpdateInput, StageCreateInput, StageMatchView, StageView } from '../../lib/api/stages.ts';
import {
  allowsDraws,
  DEFAULT_TIE_BREAKERS,
  GRAND_FINALS,
  MAX_BEST_OF,
  MAX_BEST_OF_RULES,
  MAX_GROUPS,
  MAX_SWISS_THRESHOLD,
  thresholdsOf,
  type BracketSide,
  type GrandFinal,
  type StageFormat,
  type StageSeeding,
  type StageSettings,
  type TieBreaker,
} from '../../lib/domain/stage/format.ts';
import type { StagePlanStep } from '../../lib/domain/stage/stage-plan.ts';
import { judgeResult, winsNeeded, type GameScore } from '../../lib/domain/stage/result.ts';
import { pageTimeZone } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { defaultFfaForm, ffaFormOf, ffaSettings, type FfaForm } from './ffa-form.ts';
import { scheduleInputValue, scheduleToIso } from './schedule.ts';

/** The admin's two forms (issue 21) as plain state, and the request bodies built from them. Pure. */

/** Best-of choices offered: every odd count up to the most the API takes (1, 3, 5, 7, 9). */
export const BEST_OF_CHOICES = Array.from({ length: Math.ceil(MAX_BEST_OF / 2) }, (_, i) => 2 * i + 1);
export const GROUP_CHOICES = Array.from({ length: MAX_GROUPS }, (_, i) => i + 1);
/** Best-of choices for a Swiss stage's deciding matches: Valve plays them Bo3; Bo1 and Bo5 for shorter or longer events. */
export const DECIDING_BEST_OF_CHOICES = [1, 3, 5];
export { GRAND_FINALS };

export interface StageForm {
  format: StageFormat;
  name: string;
  seeding: StageSeeding;
  /** Manual seeding: participant ids, seed 1 first. */
  order: string[];
  thirdPlace: boolean;
  grandFinal: GrandFinal;
  groups: number;
  doubleRound: boolean;
  /** Swiss rounds; empty for the API's default (⌈log2 n⌉). */
  rounds: string;
  /** GSL groups; 0 for the API's default, a group per four participants (so 1 is sent as asked). */
  gslGroups: number;
  /**
   * Swiss with thresholds (issue 59): each plays until `winsToAdvance` wins or `lossesToEliminate`
   * losses (as typed), the matches deciding either are best-of-`decidingBestOf`. The API then
   * refuses rounds, points and tie-breakers, so the form sends none.
   */
  thresholds: boolean;
  winsToAdvance: string;
  lossesToEliminate: string;
  decidingBestOf: number;
  /** Swiss: the next round is paired as soon as a round's last result is in. */
  autoPair: boolean;
  /** Free-for-all lobbies (issue 59). */
  ffa: FfaForm;
  bestOf: number;
  /** The earlier stage whose best go on; empty for the approved participants. */
  fromStage: string;
  advance: number;
  /** Best-of by round (issue 57): from a round on, of a side or of every side, another best-of. */
  bestOfRules: BestOfRuleForm[];
  /** Round robin and Swiss: the tie-breakers after points, in order; null for the format's default. */
  tieBreakers: TieBreaker[] | null;
  /** The map veto (issue 58): its matches ban and pick maps before they are played. */
  veto: boolean;
  /** Settings the form has no field for, kept from a stage plan (points, a veto's own sequences) and sent as they are. */
  kept: Pick<StageSettings, 'points' | 'veto'>;
}

/** One best-of rule as the form holds it: the side ('' for every side) and the round as typed. */
export interface BestOfRuleForm {
  side: BracketSide | '';
  round: string;
  bestOf: number;
}

/** The bracket sides a best-of rule may name in a format (none for a table: its rules are by round). */
export const ruleSidesOf = (format: StageFormat): BracketSide[] =>
  format === 'double_elimination' ? ['winners', 'losers', 'grand_final'] : format === 'single_elimination' ? ['winners', 'third_place'] : [];

/** The tie-breakers a table format starts with: the form's own choice, else the format's default. */
export const tieBreakersOf = (form: Pick<StageForm, 'format' | 'tieBreakers'>): TieBreaker[] =>
  form.tieBreakers ?? [...DEFAULT_TIE_BREAKERS[form.format === 'swiss' ? 'swiss' : 'round_robin']];

export const defaultStageForm = (order: string[] = []): StageForm => ({
  format: 'single_elimination',
  name: '',
  seeding: 'order',
  order,
  thirdPlace: false,
  grandFinal: 'double',
  groups: 1,
  doubleRound: false,
  rounds: '',
  gslGroups: 0,
  thresholds: false,
  winsToAdvance: '3',
  lossesToEliminate: '3',
  decidingBestOf: 3,
  autoPair: false,
  ffa: defaultFfaForm(),
  bestOf: 1,
  fromStage: '',
  advance: 2,
  bestOfRules: [],
  tieBreakers: null,
  veto: false,
  kept: {},
});

/**
 * The form for the next stage of a clone's plan (issue 56): its format, name, seeding and settings,
 * and for playoffs the stage created for the plan's earlier step; the default form without a step.
 */
export function formFromPlan(step: StagePlanStep | undefined, stages: readonly Pick<StageView, '_id' | 'number'>[], order: string[] = []): StageForm {
  const form = defaultStageForm(order);
  if (!step) return form;
  const { settings } = step;
  const feeding = step.from && stages.find((stage) => stage.number === step.from!.stage);
  const thresholds = thresholdsOf(settings);
  const gsl = step.format === 'gsl';
  return {
    ...form,
    format: step.format,
    name: step.name,
    seeding: step.seeding,
    thirdPlace: settings.thirdPlace ?? form.thirdPlace,
    grandFinal: settings.grandFinal ?? form.grandFinal,
    groups: (gsl ? undefined : settings.groups) ?? form.groups,
    gslGroups: (gsl ? settings.groups : undefined) ?? form.gslGroups,
    doubleRound: settings.doubleRound ?? form.doubleRound,
    rounds: settings.rounds === undefined ? '' : String(settings.rounds),
    thresholds: thresholds !== null,
    winsToAdvance: thresholds ? String(thresholds.winsToAdvance) : form.winsToAdvance,
    lossesToEliminate: thresholds ? String(thresholds.lossesToEliminate) : form.lossesToEliminate,
    decidingBestOf: settings.decidingBestOf ?? form.decidingBestOf,
    autoPair: settings.autoPair ?? form.autoPair,
    ffa: step.format === 'free_for_all' ? ffaFormOf(settings) : form.ffa,
    bestOf: settings.bestOf ?? form.bestOf,
    fromStage: feeding ? feeding._id : '',
    advance: step.from?.advance ?? form.advance,
    bestOfRules: (settings.bestOfByRound ?? []).map((rule) => ({ side: rule.side ?? '', round: String(rule.round), bestOf: rule.bestOf })),
    tieBreakers: settings.tieBreakers ? [...settings.tieBreakers] : null,
    veto: Boolean(settings.veto),
    kept: { ...(settings.points && 'win' in settings.points ? { points: { ...settings.points } } : {}), ...(settings.veto ? { veto: settings.veto } : {}) },
  };
}

/**
 * Which settings the form shows for a format; a Swiss stage with thresholds has no rounds, points
 * or tie-breakers of its own (the API refuses them there).
 */
export const settingsOf = ({ format, thresholds }: Pick<StageForm, 'format' | 'thresholds'>) => {
  const swiss = format === 'swiss';
  const byThresholds = swiss && thresholds;
  return {
    thirdPlace: format === 'single_elimination',
    grandFinal: format === 'double_elimination',
    groups: format === 'round_robin' || swiss,
    gslGroups: format === 'gsl',
    doubleRound: format === 'round_robin',
    rounds: swiss && !byThresholds,
    thresholds: swiss,
    thresholdFields: byThresholds,
    autoPair: swiss,
    ffa: format === 'free_for_all',
    /** Two-sided matches (best-of, best-of by round, the veto): every format but free-for-all lobbies. */
    matches: format !== 'free_for_all',
    points: !byThresholds && format !== 'free_for_all',
    tieBreakers: format === 'round_robin' || (swiss && !byThresholds),
  };
};

/** A threshold as typed: a whole number from 1 to MAX_SWISS_THRESHOLD, else null. */
function thresholdOf(text: string): number | null {
  const value = text.trim();
  const n = Number(value);
  return /^\d+$/.test(value) && n >= 1 && n <= MAX_SWISS_THRESHOLD ? n : null;
}

/** The body of POST …/stages: only the settings the format has, the manual order only for manual seeding. */
export function stageBody(form: StageForm): { ok: true; body: StageCreateInput } | { ok: false; message: string } {
  const shown = settingsOf(form);
  const { veto, points, ...kept } = form.kept;
  const settings: NonNullable<StageCreateInput['settings']> = { ...kept };
  if (points && shown.points) settings.points = points;
  if (form.veto && shown.matches) settings.veto = veto ?? {};
  if (shown.thirdPlace && form.thirdPlace) settings.thirdPlace = true;
  if (shown.grandFinal) settings.grandFinal = form.grandFinal;
  if (shown.groups && form.groups > 1) settings.groups = form.groups;
  if (shown.gslGroups && form.gslGroups > 0) settings.groups = form.gslGroups;
  if (shown.doubleRound && form.doubleRound) settings.doubleRound = true;
  if (shown.rounds && form.rounds.trim() !== '') {
    const rounds = Number(form.rounds);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) return { ok: false, message: t('stageAdmin.roundsInvalid') };
    settings.rounds = rounds;
  }
  if (shown.thresholdFields) {
    const wins = thresholdOf(form.winsToAdvance);
    const losses = thresholdOf(form.lossesToEliminate);
    if (wins === null || losses === null) return { ok: false, message: t('stageAdmin.thresholdInvalid', { max: MAX_SWISS_THRESHOLD }) };
    settings.winsToAdvance = wins;
    settings.lossesToEliminate = losses;
    settings.decidingBestOf = form.decidingBestOf;
  }
  if (shown.autoPair && form.autoPair) settings.autoPair = true;
  if (shown.ffa) {
    const ffa = ffaSettings(form.ffa);
    if (!ffa.ok) return ffa;
    Object.assign(settings, ffa.settings);
  }
  if (form.bestOf !== 1 && shown.matches) settings.bestOf = form.bestOf;
  if (form.bestOfRules.length > 0 && shown.matches) {
    const sides = ruleSidesOf(form.format);
    const rules = form.bestOfRules.map((rule) => ({ ...(rule.side && sides.includes(rule.side) ? { side: rule.side } : {}), round: Number(rule.round), bestOf: rule.bestOf }));
    if (rules.length > MAX_BEST_OF_RULES || rules.some((rule) => !Number.isInteger(rule.round) || rule.round < 1 || rule.round > 64)) {
      return { ok: false, message: t('stageAdmin.bestOfRuleInvalid') };
    }
    settings.bestOfByRound = rules;
  }
  if (shown.tieBreakers) {
    const breakers = tieBreakersOf(form);
    if (new Set(breakers).size !== breakers.length) return { ok: false, message: t('stage.tieBreakersTwice') };
    if (form.tieBreakers) settings.tieBreakers = breakers;
  }
  const body: StageCreateInput = { format: form.format, settings };
  const name = form.name.trim();
  if (name) body.name = name;
  if (form.fromStage) {
    // The playoff's order comes from the earlier stage's tables (cross-seeded by the server).
    if (!Number.isInteger(form.advance) || form.advance < 1) return { ok: false, message: t('stageAdmin.advanceInvalid') };
    body.from = { stageId: form.fromStage, advance: form.advance };
    return { ok: true, body };
  }
  body.seeding = form.seeding;
  if (form.seeding === 'manual') body.participants = [...form.order];
  return { ok: true, body };
}

export interface MatchForm {
  scoreA: string;
  scoreB: string;
  /** Per-game scores of a best-of-N: one row per game that may be played. */
  games: { a: string; b: string }[];
  forfeit: 'a' | 'b' | null;
  comment: string;
  /** «Коментар бачать усі»: unchecked, only the tournament's organisers see the comment (issue 57). */
  commentPublic: boolean;
  /**
   * Whether `comment` is the match's comment as its organisers read it. A public read shows a
   * comment for the organisers only as '', so until the editor has read it the body leaves the
   * comment alone.
   */
  commentRead: boolean;
  /** datetime-local value, Kyiv time. */
  scheduled: string;
}

/** The editor's fields for a match as stored (its comment known when the match came in an organiser's answer). */
export function matchForm(match: StageMatchView, bestOf: number): MatchForm {
  const played = match.status === 'completed' && !match.bye && !match.forfeit;
  const rows = bestOf > 1 ? bestOf : 0;
  return {
    scoreA: played && match.scoreA !== null ? String(match.scoreA) : '',
    scoreB: played && match.scoreB !== null ? String(match.scoreB) : '',
    games: Array.from({ length: rows }, (_, i) => ({ a: String(match.games[i]?.a ?? ''), b: String(match.games[i]?.b ?? '') })),
    forfeit: match.forfeit,
    comment: match.comment,
    commentPublic: match.commentPublic ?? true,
    commentRead: match.commentPublic !== undefined,
    scheduled: scheduleInputValue(match.scheduledAt, pageTimeZone()),
  };
}

/** The form with the match's comment as its organisers read it (`GET /api/matches/{id}/comment`). */
export const withComment = (form: MatchForm, read: Pick<MatchComment, 'comment' | 'commentPublic'>): MatchForm => ({
  ...form,
  comment: read.comment,
  commentPublic: read.commentPublic,
  commentRead: true,
});

const SCORE_MAX = 9999;

/** A typed score: undefined when empty, NaN when it is not a whole number from 0 to 9999. */
function scoreOf(text: string): number | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  const n = Number(value);
  return /^\d+$/.test(value) && n <= SCORE_MAX ? n : Number.NaN;
}

/** The games typed so far: rows with both scores; null when a row has one score only or a bad one. */
export function typedGames(form: Pick<MatchForm, 'games'>): GameScore[] | null {
  const games: GameScore[] = [];
  for (const game of form.games) {
    const a = scoreOf(game.a);
    const b = scoreOf(game.b);
    if (a === undefined && b === undefined) continue;
    if (a === undefined || b === undefined || Number.isNaN(a) || Number.isNaN(b)) return null;
    games.push({ a, b });
  }
  return games;
}

/** The match score the typed games make (games won by each side), or null when no game is typed. */
export function gamesScore(form: Pick<MatchForm, 'games'>): { a: number; b: number } | null {
  const games = typedGames(form);
  if (!games || games.length === 0) return null;
  return { a: games.filter((g) => g.a > g.b).length, b: games.filter((g) => g.b > g.a).length };
}

export type MatchBody = { ok: true; body: MatchUpdateInput; result: boolean } | { ok: false; message: string };

/**
 * The body of PATCH /matches/{id} from the editor, judged first by the server's own rule
 * (`judgeResult`, same messages), so a refusal shows before anything is sent. `result` says
 * whether it enters a result (a correction of a completed match is previewed first). A completed
 * match always keeps a result here: withdrawing it is its own button. The comment and who sees it
 * go only once the editor has read them (`commentRead`).
 */
export function matchBody(form: MatchForm, match: StageMatchView, rules: { format: StageFormat; settings?: StageSettings; bestOf: number }): MatchBody {
  const scheduledAt = scheduleToIso(form.scheduled, pageTimeZone());
  if (scheduledAt === undefined) return { ok: false, message: t('stageAdmin.timeInvalid') };
  const comment = form.commentRead ? { comment: form.comment.trim(), commentPublic: form.commentPublic } : {};
  const base: MatchUpdateInput = { version: match.version, ...comment, scheduledAt };
  if (form.forfeit) return { ok: true, body: { ...base, forfeit: form.forfeit }, result: true };
  const games = rules.bestOf > 1 ? typedGames(form) : [];
  if (games === null) return { ok: false, message: t('stageAdmin.gameIncomplete') };
  const scoreA = scoreOf(form.scoreA);
  const scoreB = scoreOf(form.scoreB);
  if (Number.isNaN(scoreA) || Number.isNaN(scoreB)) return { ok: false, message: t('stageAdmin.scoreInvalid', { max: SCORE_MAX }) };
  const wantsResult = games.length > 0 || scoreA !== undefined || scoreB !== undefined || match.status === 'completed';
  if (!wantsResult) return { ok: true, body: base, result: false };
  const input = games.length > 0 ? { games } : { scoreA, scoreB };
  const judged = judgeResult(input, { bestOf: rules.bestOf, draws: allowsDraws(rules.format, rules.settings) });
  if (!judged.ok) return { ok: false, message: t(`match.result.${judged.reason}`, { wins: winsNeeded(rules.bestOf), bestOf: rules.bestOf }) };
  return { ok: true, body: { ...base, ...input }, result: true };
}
