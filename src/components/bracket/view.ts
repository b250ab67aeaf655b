import type { BracketParticipant } from '../../lib/api/bracket.ts';
import { dependentResults, isBye, matchState, roundKind, type Bracket, type MatchState } from '../../lib/domain/bracket.ts';
import { pictureSrc } from '../../lib/domain/address.ts';
import { teamInitials } from '../../lib/domain/team.ts';
import { participantHref, participantIndex, participantName } from '../participant-names.ts';
import { t } from '../../lib/i18n/index.ts';

/**
 * What the bracket modal and the bracket page draw, worked out once from the engine's bracket and
 * the API's participants: round titles, match states, names, pictures and who won. Pure.
 */

export interface SideView {
  id: string | null;
  /** The participant's name; for an empty slot «Автоматичний прохід» (bye) or «Ще невідомо». */
  name: string;
  /** The participant's profile (issue 23); null for an empty slot or one who left. */
  href: string | null;
  /** A picture address safe to show, or null (draw the initial instead). */
  image: string | null;
  initial: string;
  result: 'winner' | 'loser' | null;
}

export interface MatchView {
  roundIndex: number;
  index: number;
  /** 1-based, as people count. */
  number: number;
  /** «Півфінал, матч 2». */
  label: string;
  state: MatchState;
  bye: boolean;
  sides: [SideView, SideView];
  comment: string;
  /** An admin may record or change its result: ready or completed, and not a bye. */
  editable: boolean;
  /**
   * Which way the connector to the next round goes from this match in a drawing: the upper match
   * of a pair joins downward, the lower one upward; the final joins nothing.
   */
  link: 'down' | 'up' | null;
}

export interface RoundView {
  index: number;
  title: string;
  matches: MatchView[];
}

/** Фінал, Півфінал, Чвертьфінал for the last three rounds, «Раунд N» for earlier ones. */
export function roundTitle(roundIndex: number, rounds: number): string {
  const kind = roundKind(roundIndex, rounds);
  return kind === 'round' ? t('bracket.round.round', { number: roundIndex + 1 }) : t(`bracket.round.${kind}`);
}


/** Rounds and matches ready to draw, in bracket order. */
export function bracketView(bracket: Bracket, participants: readonly BracketParticipant[]): RoundView[] {
  const index = participantIndex(participants);
  const rounds = bracket.length;
  return bracket.map((round, r) => {
    const title = roundTitle(r, rounds);
    return {
      index: r,
      title,
      matches: round.matches.map((match, m): MatchView => {
        const bye = isBye(r, match);
        const side = (id: string | null): SideView => {
          if (!id) {
            const name = bye ? t('bracket.bye') : t('bracket.tbd');
            return { id: null, name, href: null, image: null, initial: '', result: null };
          }
          const name = participantName(index, id);
          const result = match.winner === id ? 'winner' : match.winner ? 'loser' : null;
          return { id, name, href: participantHref(index, id), image: pictureSrc(index.get(id)?.image), initial: teamInitials(name), result };
        };
        const state = matchState(match);
        return {
          roundIndex: r,
          index: m,
          number: m + 1,
          label: t('bracket.matchOf', { round: title, number: m + 1 }),
          state,
          bye,
          sides: [side(match.a), side(match.b)],
          comment: match.comment,
          editable: !bye && state !== 'waiting',
          link: r === rounds - 1 ? null : m % 2 === 0 ? 'down' : 'up',
        };
      }),
    };
  });
}

/**
 * The later results that changing or resetting match (r, m) would clear, as lines to show before
 * the admin confirms: «Фінал, матч 1 — переміг Х».
 */
export function clearedResults(bracket: Bracket, participants: readonly BracketParticipant[], roundIndex: number, matchIndex: number): string[] {
  const index = participantIndex(participants);
  return dependentResults(bracket, roundIndex, matchIndex).map(({ round, match }) => {
    const winner = bracket[round]?.matches[match]?.winner;
    const label = t('bracket.matchOf', { round: roundTitle(round, bracket.length), number: match + 1 });
    return t('bracket.clearedResult', { match: label, name: winner ? participantName(index, winner) : '' });
  });
}

/** Whether the bracket holds a result that was played (a bye is not one): recreating it loses them. */
export const hasPlayedResults = (bracket: Bracket) => bracket.some((round, r) => round.matches.some((m) => m.winner && !isBye(r, m)));
