import type { BracketParticipant } from '../../../../lib/api/bracket.ts';
import type { Bracket } from '../../../../lib/domain/bracket.ts';
import { draftStage } from '../../../../lib/domain/stage/build.ts';
import { bracketOf, fromBracket } from '../../../../lib/domain/stage/legacy.ts';
import { singleEliminationPlan } from '../../../../lib/domain/stage/plan.ts';
import { resolveStage, type EnteredResult } from '../../../../lib/domain/stage/resolve.ts';
import { normalizeStatus } from '../../../../lib/domain/tournament-status.ts';
import type { Tx } from '../../../db/client.ts';
import { stages } from '../../../db/schema/index.ts';
import { recordAudit, type AuditActor } from '../audit.ts';
import { approvedParticipants } from '../../match-day/participants.ts';
import { played, stageCreatedEntry } from './audit-entries.ts';
import { drawing } from './commands.ts';
import { bumpTournament, insertMatches, saveStage, withdrawStages, type MatchEdit } from './save.ts';
import { publicComment } from './views.ts';
import { loadStages, lockTournament, type LoadedStage, type TournamentRow } from './store.ts';

/* The SPEC bracket (`POST/PATCH …/bracket`) over the single-elimination stage. */

/**
 * Whether a tournament runs stages the SPEC bracket cannot show (other formats, or several
 * stages): the bracket window may then neither draw over them nor clear them.
 */
const hasOtherStages = (all: readonly LoadedStage[]) => all.some((s) => s.stage.format !== 'single_elimination') || all.length > 1;

/** Whether a tournament's stages hold a result someone played (byes do not count). */
const hasPlayedResults = (all: readonly LoadedStage[]) => all.some((s) => s.resolved.some(played));

export type BracketDraw =
  | {
      ok: true;
      bracket: Bracket;
      version: number;
      participants: BracketParticipant[];
      row: TournamentRow;
      started: boolean;
    }
  | {
      ok: false;
      reason: 'notFound' | 'hasResults' | 'noParticipants' | 'needTwo' | 'otherStages';
    };

/**
 * Draws the SPEC bracket (SPEC §4 Bracket creation): a single-elimination stage of the approved
 * participants in place of any stages there were (over played results only with `replace`).
 */
export async function drawSingleElimination(
  db: Tx,
  tournamentId: string,
  options: { seeding: 'order' | 'standard'; replace: boolean },
  actor: AuditActor,
): Promise<BracketDraw> {
  return drawing(db, tournamentId, async (tx, closeCheckIn): Promise<BracketDraw> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'notFound' };
    const all = await loadStages(tx, tournamentId);
    if (hasOtherStages(all)) return { ok: false, reason: 'otherStages' };
    if (hasPlayedResults(all) && !options.replace) return { ok: false, reason: 'hasResults' };
    // As a first stage does: check-in ends first, and only those who checked in are drawn.
    if (all.length === 0 && tournament.checkInEnabled && !tournament.checkInClosedAt) await closeCheckIn(tx);
    const participants = await approvedParticipants(tx, tournament, { checkedInOnly: tournament.checkInEnabled });
    if (participants.length === 0) return { ok: false, reason: 'noParticipants' };
    if (participants.length < 2) return { ok: false, reason: 'needTwo' };
    await withdrawStages(tx, tournament, all, actor);
    const draft = draftStage(
      'single_elimination',
      {},
      participants.map((p) => p._id),
      options.seeding,
    );
    const [stage] = await tx
      .insert(stages)
      .values({
        tournamentId: tournament.id,
        number: 1,
        format: 'single_elimination',
        seeding: options.seeding,
        seeds: draft.seeds,
      })
      .returning();
    await insertMatches(tx, stage!.id, draft.plan, resolveStage(draft.plan, draft.seeds, new Map()), new Map(), tournament);
    await recordAudit(tx, stageCreatedEntry(tournament.id, stage!, actor));
    const started = normalizeStatus(tournament.status) === 'pending';
    const { bracket, version } = await bumpTournament(tx, tournament, await loadStages(tx, tournament.id), started ? { status: 'started' } : {});
    return {
      ok: true,
      bracket,
      version,
      participants,
      row: started ? { ...tournament, status: 'started' } : tournament,
      started,
    };
  });
}

/**
 * Saves an edited SPEC bracket onto the single-elimination stage (the caller has checked it with
 * the engine's `findProblem`): its first round becomes the seeds, its winners the results, its
 * comments the matches' public comments (an empty one keeps a comment for the organisers only).
 * A tournament without one gets one; an empty bracket clears them.
 */
export async function saveSingleElimination(
  tx: Tx,
  tournament: TournamentRow,
  bracket: Bracket,
  actor: AuditActor,
): Promise<{ ok: true; bracket: Bracket; version: number } | { ok: false; reason: 'otherStages' }> {
  const all = await loadStages(tx, tournament.id);
  // With other stages, the bracket window edits the single-elimination playoff in place, no more.
  const playoff = all.findLast((s) => s.stage.format === 'single_elimination');
  if (hasOtherStages(all) && (bracket.length === 0 || !playoff || playoff.stage.seeds.length !== (bracket[0]?.matches.length ?? 0) * 2)) {
    return { ok: false, reason: 'otherStages' };
  }
  if (bracket.length === 0) {
    await withdrawStages(tx, tournament, all, actor);
    return { ok: true, ...(await bumpTournament(tx, tournament, [])) };
  }
  let stage = all.findLast((s) => s.stage.format === 'single_elimination');
  const { seeds, entered, comments } = fromBracket(bracket, stage?.entered);
  // The SPEC bracket holds the winners' side only: the third-place match keeps its result.
  stage?.entered.forEach((result, index) => {
    if (stage!.plan[index]?.side !== 'winners') entered.set(index, result);
  });
  if (!stage || stage.stage.seeds.length !== seeds.length) {
    if (stage) await withdrawStages(tx, tournament, [stage], actor);
    const [created] = await tx
      .insert(stages)
      .values({
        tournamentId: tournament.id,
        number: (all.at(-1)?.stage.number ?? 0) + 1,
        format: 'single_elimination',
        seeds,
      })
      .returning();
    const plan = singleEliminationPlan(seeds.length);
    await insertMatches(tx, created!.id, plan, resolveStage(plan, seeds, new Map()), new Map(), tournament);
    await recordAudit(tx, stageCreatedEntry(tournament.id, created!, actor));
    const reloaded = await loadStages(tx, tournament.id);
    stage = reloaded.find((s) => s.stage.id === created!.id)!;
    return { ok: true, ...(await saveAndProject(tx, tournament, reloaded, stage, seeds, entered, comments, actor)) };
  }
  return { ok: true, ...(await saveAndProject(tx, tournament, all, stage, seeds, entered, comments, actor)) };
}

async function saveAndProject(
  tx: Tx,
  tournament: TournamentRow,
  all: LoadedStage[],
  stage: LoadedStage,
  seeds: (string | null)[],
  entered: Map<number, EnteredResult>,
  comments: readonly string[],
  actor: AuditActor,
): Promise<{ bracket: Bracket; version: number }> {
  // The bracket shows a comment for the organisers only as '': left empty, it stays as it is;
  // a comment typed into the bracket (whose comments everyone reads) is public.
  const edits = new Map(
    comments.flatMap((comment, index): [number, MatchEdit][] =>
      comment === '' && stage.rows[index]?.commentPublic === false ? [] : [[index, { comment, commentPublic: true }]],
    ),
  );
  // Each result the save changed is a row of its own (entered, corrected or withdrawn): a bracket save has no one match it is about.
  const { stage: saved } = await saveStage(tx, tournament, all, stage, { entered, seeds, edits }, { actor });
  const bracket = bracketOf(
    saved.resolved,
    saved.rows.map(publicComment),
  );
  return { bracket, version: tournament.bracketVersion + 1 };
}
