import { getBracket, type BracketState } from '../lib/api/bracket.ts';
import { errorMessage, HTTPError, type ApiClient } from '../lib/api/client.ts';
import { getStages, type StageMatchView, type StagesState } from '../lib/api/stages.ts';
import { getTournament, type TournamentDetail } from '../lib/api/tournaments.ts';
import { t } from '../lib/i18n/index.ts';
import { champion, progress } from '../lib/domain/bracket.ts';
import type { ReportState } from '../lib/domain/match-day.ts';
import { bracketView, type MatchView, type RoundView } from './bracket/view.ts';
import { participantIndex, participantName } from './participant-names.ts';
import { drawsStages, namesOf, stagesProgress } from './stages/view.ts';

/**
 * What a tournament's drawing shows, worked out once for the pages that draw it (the bracket page
 * and the embed, issue 23): the stages of a tournament of stages (issue 21), or the SPEC bracket
 * of one lone single-elimination stage, with its progress and its champion.
 */
export interface TournamentDrawingView {
  /** Whether anything is drawn yet (a stage, or the SPEC bracket). */
  drawn: boolean;
  stats: { completed: number; total: number; percent: number };
  winnerName: string | null;
  /** The stages to draw stage by stage; empty when the SPEC bracket is drawn instead. */
  stages: StagesState['stages'];
  names: ReturnType<typeof namesOf>;
  /** The SPEC bracket's rounds. */
  rounds: RoundView[];
  /** What each SPEC bracket card adds (issue 22): the link to its match page, its time while it is to be played, a players' report. */
  cardOf: (match: MatchView) => {
    href: string | undefined;
    scheduledAt: string | null | undefined;
    reportState: ReportState | null | undefined;
    /** Its stage match's number, score and the matches its empty slots wait for (issue 57). */
    number: number | undefined;
    scores: [number | null, number | null] | undefined;
    waitsFor: [string | null, string | null] | undefined;
  };
}

/** «Переможець M3» for an empty slot fed by an earlier match, as the stage drawing names it. */
const slotWaits = (match: StageMatchView, slot: 'a' | 'b'): string | null => {
  const from = match.from[slot];
  return from && !match[slot] ? t(from.kind === 'winner' ? 'stages.winnerOf' : 'stages.loserOf', { number: from.number }) : null;
};

export function tournamentDrawing(state: BracketState, stagesState: StagesState | null): TournamentDrawingView {
  const stages = drawsStages(stagesState) ? stagesState!.stages : [];
  // The SPEC bracket's match at (round, index) is its single-elimination stage's winners' match there.
  const playoff = stagesState?.stages.length === 1 ? stagesState.stages[0] : undefined;
  const playoffMatch = (roundIndex: number, index: number) =>
    playoff?.matches.find((m) => m.side !== 'third_place' && m.round === roundIndex + 1 && m.position === index + 1);
  const names = namesOf(stagesState?.participants ?? []);
  const bracket = state.bracket;
  const lastStage = stages.at(-1);
  const stageChampion = lastStage?.complete ? (lastStage.placements.find((p) => p.from === 1 && p.to === 1)?.participant ?? null) : null;
  const winnerId = stages.length > 0 ? stageChampion : champion(bracket);
  return {
    drawn: stages.length > 0 || bracket.length > 0,
    stats: stages.length > 0 ? stagesProgress(stages) : progress(bracket),
    winnerName: winnerId ? participantName(stages.length > 0 ? names : participantIndex(state.participants), winnerId) : null,
    stages,
    names,
    rounds: bracketView(bracket, state.participants),
    cardOf: (match) => {
      const found = playoffMatch(match.roundIndex, match.index);
      return {
        href: found ? `/matches/${found._id}` : undefined,
        // Its time while it is still to be played, localised by LocalTimes.
        scheduledAt: found && found.status !== 'completed' && !found.bye ? found.scheduledAt : null,
        reportState: found?.reportState,
        number: found?.number,
        scores: found && found.status === 'completed' && !found.bye ? [found.scoreA, found.scoreB] : undefined,
        waitsFor: found ? [slotWaits(found, 'a'), slotWaits(found, 'b')] : undefined,
      };
    },
  };
}

/** What a page that draws a tournament (the bracket page, the embed) loaded: the drawing, or why not. */
export type LoadedDrawing =
  | {
      tournament: TournamentDetail;
      state: BracketState;
      drawing: TournamentDrawingView;
      /** False when the stages could not be read and the SPEC bracket stands in: not to be held. */
      cacheable: boolean;
      problem: null;
      status: 200;
    }
  | { tournament: null; problem: string; status: 404 | 503; cacheable: false };

/** A path that cannot be an id: 404, nothing asked. */
export const invalidDrawing = (): LoadedDrawing => ({ tournament: null, problem: t('tournament.invalid'), status: 404, cacheable: false });

/** Reads the tournament, its SPEC bracket and its stages for a drawing; stages that cannot be read leave the SPEC bracket to stand in. */
export async function loadTournamentDrawing(api: ApiClient, id: string): Promise<LoadedDrawing> {
  let stagesMissing = false;
  try {
    const [tournament, { state }, stagesState] = await Promise.all([
      getTournament(api, id),
      getBracket(api, id),
      getStages(api, id).then(
        (answer) => answer.state,
        () => {
          stagesMissing = true;
          return null;
        },
      ),
    ]);
    if (!state) return { tournament: null, problem: t('tournament.loadError'), status: 503, cacheable: false };
    return { tournament, state, drawing: tournamentDrawing(state, stagesState), cacheable: !stagesMissing, problem: null, status: 200 };
  } catch (error) {
    const missing = error instanceof HTTPError && error.response.status === 404;
    return { tournament: null, problem: missing ? t('tournament.notFound') : errorMessage(error, t('tournament.loadError')), status: missing ? 404 : 503, cacheable: false };
  }
}
