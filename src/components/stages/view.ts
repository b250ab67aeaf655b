import { ffaRounds } from '../../lib/domain/stage/free-for-all.ts';
import type { BracketParticipant } from '../../lib/api/bracket.ts';
import type { PlacementView, StageMatchView, StagesState, StageView } from '../../lib/api/stages.ts';
import { pictureSrc } from '../../lib/domain/address.ts';
import { roundKind } from '../../lib/domain/bracket.ts';
import { thresholdsOf, type BracketSide, type MatchStatus, type StageSettings } from '../../lib/domain/stage/format.ts';
import { swissRounds as plannedSwissRounds } from '../../lib/domain/stage/build.ts';
import { gslMatchAt } from '../../lib/domain/stage/gsl.ts';
import type { Thresholds } from '../../lib/domain/stage/swiss-thresholds.ts';
import type { ReportState } from '../../lib/domain/match-day.ts';
import { teamInitials } from '../../lib/domain/team.ts';
import { formatNumber } from '../../lib/i18n/format.ts';
import { currentLocale, plural, t } from '../../lib/i18n/index.ts';
import { participantHref, participantName } from '../participant-names.ts';

/**
 * What the stage components draw, worked out once from the API's stages (issue 21): trees per
 * bracket side with round titles and connectors, result grids, Swiss rounds, GSL groups' matches,
 * places. Pure, so the
 * ordering and the labels are unit-tested without rendering.
 */

/** The participants by id (the bracket's `participantIndex`); `participantName` reads a name from it. */
export type Names = Map<string, BracketParticipant>;
export { participantIndex as namesOf } from '../participant-names.ts';
const nameOf = participantName;

export interface StageSideView {
  id: string | null;
  /** The name; for an empty slot «Автоматичний прохід» (bye), «Переможець M3» / «Переможений у M2», or «Ще невідомо». */
  name: string;
  /** The participant's profile; null for an empty slot or one who left. */
  href: string | null;
  image: string | null;
  initial: string;
  result: 'winner' | 'loser' | 'draw' | null;
  /** The side's score once a result counts (not for a bye). */
  score: number | null;
}

/** Which way a tree match's connector to the next round goes: halving pairs, straight on, or none. */
export type Link = 'down' | 'up' | 'straight' | null;

export interface StageMatchCard {
  id: string;
  /** The match's number across its stage (M1…Mn, issue 57). */
  number: number;
  /** «Півфінал, M6», for screen readers. */
  label: string;
  status: MatchStatus;
  bye: boolean;
  sides: [StageSideView, StageSideView];
  /** Who forfeited, by name. */
  forfeit: string | null;
  /** Per-game scores of a best-of-N, «16:12, 9:16». */
  games: string | null;
  /** The match's own best-of (issue 57), shown on the card when it is more than one game. */
  bestOf: number;
  comment: string;
  /** When it is to be played (issue 22); null once played, for a bye, or while not scheduled. */
  scheduledAt: string | null;
  /** A players' report waiting for confirmation, or disputed (issue 22). */
  reportState: ReportState | null;
  /** The connector from the left (every tree round but the first). */
  incoming: boolean;
  link: Link;
}

export interface TreeRound {
  key: string;
  title: string;
  matches: StageMatchCard[];
}

export interface TreeSection {
  side: BracketSide;
  title: string;
  rounds: TreeRound[];
}

const byPlace = (x: StageMatchView, y: StageMatchView) => x.round - y.round || x.position - y.position;

/** An empty slot's words: a bye, the match whose winner or loser comes here, or not known yet. */
function emptySlot(match: StageMatchView, slot: 'a' | 'b'): string {
  if (match.bye) return t('bracket.bye');
  const from = match.from[slot];
  return from ? t(from.kind === 'winner' ? 'stages.winnerOf' : 'stages.loserOf', { number: from.number }) : t('bracket.tbd');
}

function side(match: StageMatchView, slot: 'a' | 'b', names: Names): StageSideView {
  const id = match[slot];
  const score = slot === 'a' ? match.scoreA : match.scoreB;
  if (!id)
    return {
      id: null,
      name: emptySlot(match, slot),
      href: null,
      image: null,
      initial: '',
      result: null,
      score: null,
    };
  const name = nameOf(names, id);
  const decided = match.status === 'completed' && !match.bye;
  const result = match.winner === id ? 'winner' : match.winner ? 'loser' : decided ? 'draw' : null;
  return {
    id,
    name,
    href: participantHref(names, id),
    image: pictureSrc(names.get(id)?.image),
    initial: teamInitials(name),
    result,
    score: decided ? score : null,
  };
}

/** One match as a card: sides with names, scores and who won; `roundTitle` names it for screen readers. */
export function matchCard(
  match: StageMatchView,
  roundTitle: string,
  names: Names,
  connect: { incoming: boolean; link: Link } = { incoming: false, link: null },
): StageMatchCard {
  const forfeited = match.forfeit ? match[match.forfeit] : null;
  return {
    id: match._id,
    number: match.number,
    label: t('stages.matchOf', { round: roundTitle, number: match.number }),
    status: match.status,
    bye: match.bye,
    sides: [side(match, 'a', names), side(match, 'b', names)],
    forfeit: forfeited ? nameOf(names, forfeited) : null,
    games: match.games.length > 0 ? match.games.map((g) => (g.map ? `${g.map} ${g.a}:${g.b}` : `${g.a}:${g.b}`)).join(', ') : null,
    bestOf: match.bestOf,
    comment: match.comment,
    scheduledAt: match.status === 'completed' || match.bye ? null : match.scheduledAt,
    reportState: match.status === 'completed' ? null : match.reportState,
    ...connect,
  };
}

/** A free-for-all lobby's name on its own page and in its title (issue 59): «Лобі 2 · Раунд 1», or «Фінальне лобі». */
export const lobbyTitle = ({ stage, lobby }: { stage: { final: boolean; round: number }; lobby: { number: number } }): string =>
  stage.final ? t('stages.ffa.final') : t('stages.ffa.lobbyInRound', { number: lobby.number, round: stage.round });

/** Where a free-for-all lobby is, under its title on its page and its embed: its stage, the format, and a final's round. */
export function lobbyWhere({ stage }: { stage: { name: string; number: number; final: boolean; round: number } }): string[] {
  const name = stage.name.trim() || t('matchPage.stage', { number: stage.number });
  return [name, t('stages.format.free_for_all'), ...(stage.final ? [t('stages.ffa.round', { number: stage.round })] : [])];
}

/** How far a free-for-all lobby has got: its games played of its games, or that all are played. */
export const lobbyProgress = ({ stage, lobby }: { stage: { games: number }; lobby: { complete: boolean; games: readonly unknown[] } }): string =>
  lobby.complete ? t('stages.ffa.done') : t('stages.ffa.gamesPlayed', { played: lobby.games.length, games: stage.games });

/** How a free-for-all stage counts a lobby's points, the line under its table (`lobbyPage.points`). */
export const lobbyPoints = ({ stage }: { stage: { points: { placement: readonly number[]; kill: number } } }): string =>
  t('lobbyPage.points', { placement: stage.points.placement.map((p) => formatNumber(p)).join(', '), kill: formatNumber(stage.points.kill) });

/** Matches grouped by round number, each round in position order, rounds ascending. */
export function roundsOf(matches: readonly StageMatchView[]): StageMatchView[][] {
  const rounds = new Map<number, StageMatchView[]>();
  for (const match of [...matches].sort(byPlace)) rounds.set(match.round, [...(rounds.get(match.round) ?? []), match]);
  return [...rounds.values()];
}

function roundTitle(side: BracketSide, round: number, rounds: number): string {
  switch (side) {
    case 'winners': {
      const kind = roundKind(round - 1, rounds);
      return kind === 'round' ? t('bracket.round.round', { number: round }) : t(`bracket.round.${kind}`);
    }
    case 'losers':
      return t('stages.round.losers', { number: round });
    case 'grand_final':
      return round === 1 ? t('stages.round.grandFinal') : t('stages.round.grandFinalReset');
    case 'third_place':
      return t('stages.round.thirdPlace');
  }
}

/**
 * The connector out of each round: a round half as big as this one takes its matches in pairs
 * (the upper one joins downward, the lower upward), one as big takes them straight on.
 */
function linkOf(rounds: readonly StageMatchView[][], r: number, m: number): Link {
  const next = rounds[r + 1];
  if (!next) return null;
  if (next.length === rounds[r]!.length) return 'straight';
  return m % 2 === 0 ? 'down' : 'up';
}

/**
 * An elimination stage as trees: the winners' bracket, the losers' bracket, the grand final (its
 * reset only once it is to be played) and the third-place match; each side's rounds in order.
 */
export function eliminationTree(stage: Pick<StageView, 'matches'>, names: Names): TreeSection[] {
  const sections: TreeSection[] = [];
  for (const sideName of ['winners', 'losers', 'grand_final', 'third_place'] as const) {
    let matches = stage.matches.filter((m) => m.side === sideName);
    // The reset is played only when the losers' champion wins the first final; until then, or when it was not needed, it is not drawn.
    if (sideName === 'grand_final') matches = matches.filter((m) => m.round === 1 || (!m.bye && m.status !== 'waiting'));
    if (matches.length === 0) continue;
    const rounds = roundsOf(matches);
    sections.push({
      side: sideName,
      title: t(`stages.side.${sideName}`),
      rounds: rounds.map((round, r) => {
        const number = round[0]!.round;
        const title = roundTitle(sideName, number, rounds.length);
        return {
          key: `${sideName}-${number}`,
          title,
          matches: round.map((match, m) =>
            matchCard(match, title, names, {
              incoming: r > 0,
              link: linkOf(rounds, r, m),
            }),
          ),
        };
      }),
    });
  }
  return sections;
}

/** A group's letter: A for 1, B for 2 … */
export const groupLetter = (group: number): string => String.fromCharCode(64 + group);
export const groupTitle = (group: number): string => t('stages.group', { letter: groupLetter(group) });

export type GridCell =
  | { kind: 'self' }
  /** Every meeting of the row's participant with the column's, from the row's side; an unplayed one has no score. */
  | {
      kind: 'meetings';
      meetings: {
        scoreFor: number | null;
        scoreAgainst: number | null;
        outcome: 'win' | 'draw' | 'loss' | null;
        forfeit: boolean;
      }[];
    };

export interface GridRow {
  id: string;
  name: string;
  href: string | null;
  cells: GridCell[];
}

/**
 * A round-robin group's cross table: rows and columns are the participants in `order` (the
 * table's), each cell the row's results against the column (two meetings in a double round).
 */
export function resultGrid(order: readonly string[], matches: readonly StageMatchView[], names: Names): GridRow[] {
  const sorted = [...matches].sort(byPlace);
  return order.map((id) => ({
    id,
    name: nameOf(names, id),
    href: participantHref(names, id),
    cells: order.map((other): GridCell => {
      if (other === id) return { kind: 'self' };
      const meetings = sorted
        .filter((m) => (m.a === id && m.b === other) || (m.a === other && m.b === id))
        .map((m) => {
          const played = m.status === 'completed' && !m.bye;
          const home = m.a === id;
          const outcome = !played ? null : m.winner === id ? 'win' : m.winner ? 'loss' : 'draw';
          return {
            scoreFor: played ? (home ? m.scoreA : m.scoreB) : null,
            scoreAgainst: played ? (home ? m.scoreB : m.scoreA) : null,
            outcome,
            forfeit: played && m.forfeit !== null,
          } as const;
        });
      return { kind: 'meetings', meetings };
    }),
  }));
}

/** A group's participants in table order (the API ranks them), its seed order before any table. */
export const tableOrder = (group: StageView['groups'][number]): string[] =>
  group.standings.length > 0 ? [...group.standings].sort((x, y) => x.rank - y.rank).map((row) => row.participant) : [...group.participants];

export interface SwissRoundView {
  number: number;
  title: string;
  matches: StageMatchCard[];
}

/** A Swiss group's rounds, each with its pairings in board order; the bye is a match with one side. */
export const swissRounds = (matches: readonly StageMatchView[], names: Names): SwissRoundView[] =>
  roundsOf(matches).map((round) => {
    const number = round[0]!.round;
    const title = t('stages.swissRound', { number });
    return {
      number,
      title,
      matches: round.map((match) => matchCard(match, title, names)),
    };
  });

/** A GSL group's matches in the order they are played, under the names the format gives them (issue 59). */
export interface GslBlock {
  key: 'opening' | 'winners' | 'elimination' | 'decider';
  title: string;
  matches: StageMatchView[];
}

/** A GSL group's five matches as four blocks: the two opening matches, the winners' match, the elimination match, the decider. */
export function gslBlocks(matches: readonly StageMatchView[]): GslBlock[] {
  const blocks: GslBlock[] = (['opening', 'winners', 'elimination', 'decider'] as const).map((key) => ({ key, title: t(`stages.gsl.${key}`), matches: [] }));
  for (const match of [...matches].sort(byPlace)) {
    const kind = gslMatchAt(match.round, match.position);
    if (!kind) continue;
    blocks.find((block) => block.key === (kind === 'openingHigh' || kind === 'openingLow' ? 'opening' : kind))!.matches.push(match);
  }
  return blocks.filter((block) => block.matches.length > 0);
}

/**
 * The line under a Swiss stage's title when thresholds end it (issue 59): «До 3 перемог — далі,
 * 3 поразки — виліт; вирішальні матчі Bo3». The deciding matches' best-of is said only when it
 * differs from the stage's; null for a Swiss of a fixed number of rounds.
 */
export function thresholdsLine(settings: StageSettings): string | null {
  const thresholds = thresholdsOf(settings);
  if (!thresholds) return null;
  const locale = currentLocale();
  const words = {
    wins: plural(locale, 'count.thresholdWins', thresholds.winsToAdvance),
    losses: plural(locale, 'count.thresholdLosses', thresholds.lossesToEliminate),
  };
  const deciding = settings.decidingBestOf;
  return deciding === undefined || deciding === (settings.bestOf ?? 1)
    ? t('stages.thresholds', words)
    : t('stages.thresholdsDeciding', { ...words, bestOf: deciding });
}

/** A win–loss record as a Swiss table with thresholds shows it: «3–1» (an en dash). */
export const recordText = (row: { wins: number; losses: number }): string => `${row.wins}–${row.losses}`;

export interface PlacementRow {
  id: string;
  name: string;
  href: string | null;
  from: number;
  /** «1», «3–4». */
  place: string;
}

/** Final places best first: a shared band (3–4) as one label, in the order the API gave within it. */
export const placementRows = (placements: readonly PlacementView[], names: Names): PlacementRow[] =>
  [...placements]
    .sort((x, y) => x.from - y.from)
    .map((p) => ({
      id: p.participant,
      name: nameOf(names, p.participant),
      href: participantHref(names, p.participant),
      from: p.from,
      place: p.from === p.to ? String(p.from) : `${p.from}–${p.to}`,
    }));

type ProgressStage = Pick<StageView, 'matches' | 'format' | 'settings' | 'groups' | 'disqualified' | 'complete'> & Partial<Pick<StageView, 'lobbies' | 'seeds'>>;

/** Matches played out of those to play, over every stage; byes are neither. */
export function stagesProgress(stages: readonly ProgressStage[]): {
  completed: number;
  total: number;
  percent: number;
} {
  // As the SPEC bracket's progress counts (lib/domain/bracket.ts `progress`): byes, and a grand
  // final's reset that was not needed, are completed matches. A Swiss stage pairs its rounds one by
  // one: the rounds not paired yet count too (issue 57), or one round played would read as 100 %.
  const all = stages.flatMap((s) => s.matches);
  const lobbies = stages.map(lobbyGamesProgress);
  const completed = all.filter((m) => m.status === 'completed').length + lobbies.reduce((sum, l) => sum + l.played, 0);
  const unpaired = stages.reduce((sum, stage) => sum + swissRoundsToCome(stage), 0);
  const total = all.length + unpaired + lobbies.reduce((sum, l) => sum + l.total, 0);
  // Rounded, 199 of 200 would read as done.
  const percent = total ? Math.min(completed < total ? 99 : 100, Math.round((completed / total) * 100)) : 0;
  return { completed, total, percent };
}

/**
 * A free-for-all stage's games (issue 59) count as its matches: those entered, of every lobby its
 * rounds will have (`ffaRounds` from its participants), each playing the stage's games.
 */
function lobbyGamesProgress(stage: ProgressStage): { played: number; total: number } {
  if (stage.format !== 'free_for_all' || !stage.lobbies) return { played: 0, total: 0 };
  const games = stage.settings.games ?? 1;
  const participants = (stage.seeds ?? []).filter((id) => id !== null).length;
  const planned = ffaRounds(participants, { lobbySize: stage.settings.lobbySize ?? participants, advance: stage.settings.advance }).reduce((sum, lobbies) => sum + lobbies, 0);
  const played = stage.lobbies.reduce((sum, lobby) => sum + lobby.games.length, 0);
  return { played, total: Math.max(played, planned * games) };
}

/** The matches of a Swiss stage's rounds not paired yet: each group plays ⌈n/2⌉ a round (a bye is one). */
function swissRoundsToCome(stage: ProgressStage): number {
  if (stage.format !== 'swiss') return 0;
  const thresholds = thresholdsOf(stage.settings);
  if (thresholds) return thresholdMatchesToCome(stage, thresholds);
  const groups = stage.groups.map((g) => g.participants);
  const paired = Math.max(0, ...stage.matches.map((m) => m.round));
  const left = Math.max(0, plannedSwissRounds(stage.settings, groups) - paired);
  return left * groups.reduce((sum, members) => sum + Math.ceil(members.length / 2), 0);
}

/**
 * A Swiss stage with thresholds, whose rounds end when its participants do: at most the matches its
 * undecided participants can still play between them — each until its last win or its last loss —
 * less those already paired. An estimate (a match that ends two runs at once leaves slots unused, a
 * bye fills one), but at least one match while anyone is undecided: it never reads as done early.
 */
function thresholdMatchesToCome(stage: ProgressStage, thresholds: Thresholds): number {
  if (stage.complete) return 0;
  const out = new Set(stage.disqualified);
  let left = 0;
  for (const group of stage.groups) {
    const rows = new Map(group.standings.map((row) => [row.participant, row]));
    for (const id of group.participants) {
      const row = rows.get(id);
      if (out.has(id) || row?.outcome) continue;
      left += thresholds.winsToAdvance - (row?.wins ?? 0) + thresholds.lossesToEliminate - (row?.losses ?? 0) - 1;
    }
  }
  const paired = stage.matches.filter((m) => m.status !== 'completed').length;
  return Math.max(0, Math.ceil(left / 2) - paired);
}

/**
 * Whether the bracket page draws the stages: any stage other than one lone single-elimination
 * stage, which the page keeps drawing as the SPEC's bracket (the same matches).
 */
export const drawsStages = (state: Pick<StagesState, 'stages'> | null): boolean =>
  !!state &&
  state.stages.length > 0 &&
  // The SPEC bracket has no place for a third-place match: such a stage is drawn as a stage.
  !(state.stages.length === 1 && state.stages[0]!.format === 'single_elimination' && !state.stages[0]!.settings.thirdPlace);

/** A signed score difference: +3, 0, −2 (a real minus sign). */
export const signed = (value: number): string => (value > 0 ? `+${value}` : value < 0 ? `−${Math.abs(value)}` : '0');
