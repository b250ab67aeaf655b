import type { StageMatchView, StageView } from '../../lib/api/stages.ts';
import { isElimination } from '../../lib/domain/stage/format.ts';
import { participantName } from '../../components/participant-names.ts';
import { t } from '../../lib/i18n/index.ts';
import { eliminationTree, groupTitle, gslBlocks, matchCard, roundsOf, type Names, type StageMatchCard } from '../../components/stages/view.ts';

/**
 * How the admin's modal lists a stage's matches (issue 21): elimination by bracket side and round
 * (the bracket page's trees), round robin and Swiss by group and round, GSL groups by group and
 * the names of their matches (issue 59). Pure.
 */

export interface MatchRow {
  match: StageMatchView;
  card: StageMatchCard;
  /** «Група A, тур 2, матч 1», «Півфінал, матч 2»: unique within the stage. */
  label: string;
  /** A result may be entered or corrected: both sides known (ready or completed) and not a bye. */
  editable: boolean;
}

export interface RoundBlock {
  key: string;
  title: string;
  matches: MatchRow[];
}

export interface MatchSection {
  key: string;
  /** The group or bracket side; null for a table stage of one group. */
  title: string | null;
  rounds: RoundBlock[];
}

export const isEditable = (match: StageMatchView): boolean => !match.bye && match.a !== null && match.b !== null && match.status !== 'waiting';

const row = (match: StageMatchView, card: StageMatchCard): MatchRow => ({ match, card, label: card.label, editable: isEditable(match) });

/** The stage's matches in sections, rounds and board order, each with its label. */
export function matchSections(stage: StageView, names: Names): MatchSection[] {
  const byId = new Map(stage.matches.map((m) => [m._id, m]));
  if (isElimination(stage.format)) {
    return eliminationTree(stage, names).map((section) => ({
      key: section.side,
      title: section.title,
      rounds: section.rounds.map((round) => ({
        key: round.key,
        title: round.title,
        matches: round.matches.map((card) => row(byId.get(card.id)!, card)),
      })),
    }));
  }
  const groups = [...new Set(stage.matches.map((m) => m.group ?? 1))].sort((x, y) => x - y);
  const split = stage.groups.length > 1 || groups.length > 1;
  return groups.map((group) => {
    const title = split ? groupTitle(group) : null;
    const own = stage.matches.filter((m) => (m.group ?? 1) === group);
    const block = (key: string, round: string, matches: readonly StageMatchView[]): RoundBlock => {
      const full = title ? t('stageAdmin.groupRound', { group: title, round }) : round;
      return { key: `group-${group}-${key}`, title: round, matches: matches.map((match) => row(match, matchCard(match, full, names))) };
    };
    return {
      key: `group-${group}`,
      title,
      rounds:
        stage.format === 'gsl'
          ? gslBlocks(own).map((gsl) => block(gsl.key, gsl.title, gsl.matches))
          : roundsOf(own).map((matches) => block(`round-${matches[0]!.round}`, t('stages.swissRound', { number: matches[0]!.round }), matches)),
    };
  });
}

/** Every match's label by id, for naming the matches a correction would reset. */
export const matchLabels = (sections: readonly MatchSection[]): Map<string, string> =>
  new Map(sections.flatMap((s) => s.rounds.flatMap((r) => r.matches.map((m) => [m.match._id, m.label] as const))));

/** Whether the stage's tables are shown (round robin and Swiss). */
export const hasTables = (stage: Pick<StageView, 'format'>): boolean => !isElimination(stage.format);

/** A participant's shown name, or «Невідомий учасник» for one the API no longer lists. */
export const nameIn = (names: Names, id: string): string => participantName(names, id);

/** The name of a stage on its tab: «Етап 2: Плей-оф» or «Етап 1: Кругова система». */
export const stageTitle = (stage: Pick<StageView, 'number' | 'name' | 'format'>): string =>
  `${t('stages.stage', { number: stage.number })}: ${stage.name || t(`stages.format.${stage.format}`)}`;
