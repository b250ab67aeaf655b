import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { StageCreateInput, StageView } from '../../../../lib/api/stages.ts';
import { crossSeed, draftStage, groupCount, gslGroupsFit, nextSwissRound, seedOrder, type NextRoundRefusal } from '../../../../lib/domain/stage/build.ts';
import { ffaSettingsOf, isElimination, MAX_ROUND_ROBIN_GROUP, MAX_STAGE_PARTICIPANTS, thresholdsOf } from '../../../../lib/domain/stage/format.ts';
import { ffaProblem } from '../../../../lib/domain/stage/free-for-all.ts';
import { isStageComplete, resolveStage } from '../../../../lib/domain/stage/resolve.ts';
import { isFinished, normalizeStatus } from '../../../../lib/domain/tournament-status.ts';
import type { Tx } from '../../../db/client.ts';
import { playerGameStats, stageGroups, stages, teamGameStats } from '../../../db/schema/index.ts';
import { recordAudit, type AuditActor } from '../audit.ts';
import { approvedParticipants } from '../../match-day/participants.ts';
import { closeCheckInWithin, published, type CheckInClosing } from '../../match-day/registration.ts';
import { publishing } from '../../live/live.ts';
import { stageCreatedEntry } from './audit-entries.ts';
import { insertLobbies } from './lobbies.ts';
import { bumpTournament, insertMatches } from './save.ts';
import { finished, placementsOf, tablesOf } from './standings.ts';
import { loadStages, lockTournament, type LoadedStage, type TournamentRow } from './store.ts';
import { stageView } from './views.ts';

/* Creating a stage (`POST …/stages`) and pairing a Swiss stage's next round (`POST …/next-round`). */

/** The game's rating of each participant (players or teams by the tournament's type); the unrated are absent. */
async function ratingsOf(tx: Tx, tournament: TournamentRow, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = tournament.soloOnly
    ? await tx
        .select({ id: playerGameStats.userId, rating: playerGameStats.rating })
        .from(playerGameStats)
        .where(and(eq(playerGameStats.gameId, tournament.gameId), inArray(playerGameStats.userId, [...ids])))
    : await tx
        .select({ id: teamGameStats.teamId, rating: teamGameStats.rating })
        .from(teamGameStats)
        .where(and(eq(teamGameStats.gameId, tournament.gameId), inArray(teamGameStats.teamId, [...ids])));
  return new Map(rows.map((r) => [r.id, r.rating]));
}

export type StageRefusal =
  | 'notFound'
  | 'finished'
  | 'noParticipants'
  | 'needTwo'
  | 'tooMany'
  | 'manualParticipants'
  | 'fromNotFound'
  | 'fromNotComplete'
  | 'advanceTooFew'
  | 'thirdPlaceNeedsFour'
  | 'groupTooLarge'
  | 'gslGroups'
  | 'advanceBeyondQualified'
  | 'ffaAdvanceNeeded'
  | 'ffaAdvanceTooLarge';

/**
 * A stage created; for one seeded by rating, how many of its participants have a rating in the game
 * (`unrated`: those without one, seeded last in the order they applied; all of them when nobody is rated).
 */
export type StageCreated =
  | { ok: true; stage: StageView; started: boolean; unrated?: number }
  /** For `gslGroups`: how many participants and groups did not fit. */
  | { ok: false; reason: StageRefusal; participants?: number; groups?: number };

/**
 * Who advances from a finished stage: the top `advance` of each group, cross-seeded; from an
 * elimination stage, the best placed. From a Swiss stage with thresholds only those who advanced
 * may: null when the top `advance` of a group holds anyone else.
 */
function advancing(source: LoadedStage, advance: number): string[] | null {
  if (isElimination(source.stage.format)) {
    return placementsOf(source, [])
      .sort((x, y) => x.from - y.from)
      .slice(0, advance)
      .map((p) => p.participant);
  }
  const tables = tablesOf(source);
  if (source.stage.format === 'swiss' && thresholdsOf(source.stage.settings) && tables.some((table) => table.slice(0, advance).some((row) => row.outcome !== 'advanced'))) {
    return null;
  }
  return crossSeed(
    tables.map((table) => table.map((row) => row.participant)),
    advance,
  );
}

/** A refusal found inside a change's transaction, thrown so the transaction rolls back whole. */
class Refused<T> extends Error {
  readonly outcome: T;
  constructor(outcome: T) {
    super('refused');
    this.outcome = outcome;
  }
}

/**
 * Runs a draw in one transaction that a refusal rolls back whole: a draw closes check-in before it
 * can tell whether enough checked in, and a refused draw must leave no drops, promotions or audit
 * rows behind. The close's notices go out only once the draw committed.
 */
export async function drawing<T extends { ok: boolean }>(
  db: Tx,
  tournamentId: string,
  draw: (tx: Tx, close: (tx: Tx) => Promise<void>) => Promise<T>,
): Promise<T> {
  let closing = { closed: false } as CheckInClosing;
  const close = async (tx: Tx) => {
    closing = await closeCheckInWithin(tx, tournamentId);
  };
  try {
    const outcome = await db.transaction(async (tx) => {
      const result = await draw(tx, close);
      if (!result.ok) throw new Refused(result);
      return result;
    });
    if (closing.closed) published(tournamentId, 'checkIn', closing.told);
    return outcome;
  } catch (error) {
    if (error instanceof Refused) return error.outcome as T;
    throw error;
  }
}

/**
 * Creates a stage (issue 21, `POST …/stages`) in one transaction and a fixed number of queries:
 * its participants are the approved ones (or the top of an earlier stage's groups), seeded as
 * asked; the whole stage is built in memory and written with one insert per table. Creating the
 * first stage closes applications, as drawing a bracket does.
 */
async function writeStage(db: Tx, tournamentId: string, input: StageCreateInput, actor: AuditActor): Promise<StageCreated> {
  return drawing(db, tournamentId, async (tx, closeCheckIn): Promise<StageCreated> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'notFound' };
    if (isFinished(tournament.status)) return { ok: false, reason: 'finished' };
    let all = await loadStages(tx, tournamentId);
    const seeding = input.seeding ?? 'order';
    const settings = input.settings ?? {};
    let pool: string[];
    // Disqualified in the stage that feeds this one: they forfeit here too.
    let carried: string[] = [];
    if (input.from) {
      const source = all.find((s) => s.stage.id === input.from!.stageId);
      if (!source) return { ok: false, reason: 'fromNotFound' };
      if (!finished(source)) return { ok: false, reason: 'fromNotComplete' };
      const advanced = advancing(source, input.from.advance);
      if (!advanced) return { ok: false, reason: 'advanceBeyondQualified' };
      pool = advanced;
      carried = source.stage.disqualified.filter((id) => pool.includes(id));
      if (pool.length < 2) return { ok: false, reason: 'advanceTooFew' };
    } else {
      // Check-in (issue 22): its end is carried out first, and only those who checked in are seeded.
      if (tournament.checkInEnabled && !tournament.checkInClosedAt) await closeCheckIn(tx);
      const approved = await approvedParticipants(tx, tournament, { checkedInOnly: tournament.checkInEnabled });
      if (approved.length === 0) return { ok: false, reason: 'noParticipants' };
      pool = approved.map((p) => p._id);
    }
    if (pool.length < 2) return { ok: false, reason: 'needTwo' };
    if (pool.length > MAX_STAGE_PARTICIPANTS) return { ok: false, reason: 'tooMany' };
    if (input.format === 'single_elimination' && settings.thirdPlace && pool.length < 4) return { ok: false, reason: 'thirdPlaceNeedsFour' };
    if (input.format === 'round_robin' && Math.ceil(pool.length / groupCount(pool.length, settings)) > MAX_ROUND_ROBIN_GROUP) {
      return { ok: false, reason: 'groupTooLarge' };
    }
    if (input.format === 'free_for_all') {
      const problem = ffaProblem(pool.length, ffaSettingsOf(settings));
      if (problem === 'advanceNeeded') return { ok: false, reason: 'ffaAdvanceNeeded', participants: pool.length };
      if (problem) return { ok: false, reason: 'ffaAdvanceTooLarge', participants: pool.length };
    }
    if (input.format === 'gsl' && !gslGroupsFit(pool.length, settings)) {
      return { ok: false, reason: 'gslGroups', participants: pool.length, groups: settings.groups ?? groupCount(pool.length, settings, 'gsl') };
    }
    if (seeding === 'manual') {
      const given = input.participants ?? [];
      if (given.length !== pool.length || new Set(given).size !== given.length || given.some((id) => !pool.includes(id))) {
        return { ok: false, reason: 'manualParticipants' };
      }
      pool = [...given];
    }
    const ratings = seeding === 'rating' || input.format === 'swiss' ? await ratingsOf(tx, tournament, pool) : new Map<string, number>();
    // Playoffs keep the cross-seeded order; `standard` pairs it 1 v n.
    const ordered = input.from ? pool : seedOrder(pool, seeding, ratings);
    const draft = draftStage(input.format, settings, ordered, input.from ? 'standard' : seeding, ratings);
    const top = all.at(-1)?.stage.number ?? 0;
    const [stage] = await tx
      .insert(stages)
      .values({
        tournamentId: tournament.id,
        number: top + 1,
        name: input.name ?? '',
        format: input.format,
        // Playoffs from groups are cross-seeded and paired 1 v n, whatever was asked.
        seeding: input.from ? 'standard' : seeding,
        settings,
        seeds: draft.seeds,
        disqualified: carried,
        fromStageId: input.from?.stageId ?? null,
        advance: input.from?.advance ?? null,
      })
      .returning();
    const groupIds = new Map(draft.groups.map((_, g) => [g + 1, randomUUID()]));
    if (groupIds.size > 0)
      await tx.insert(stageGroups).values(
        [...groupIds].map(([number, id]) => ({
          id,
          stageId: stage!.id,
          number,
        })),
      );
    const resolved = resolveStage(draft.plan, draft.seeds, new Map(), new Set(carried));
    await insertMatches(tx, stage!.id, draft.plan, resolved, groupIds, tournament);
    if (input.format === 'free_for_all') await insertLobbies(tx, tournament, stage!.id, 1, ordered, ffaSettingsOf(settings).lobbySize);
    const started = normalizeStatus(tournament.status) === 'pending';
    const [created] = await loadStages(tx, tournament.id).then((loaded) => {
      all = loaded;
      return loaded.filter((s) => s.stage.id === stage!.id);
    });
    await bumpTournament(tx, tournament, all, started ? { status: 'started' } : {});
    await recordAudit(tx, stageCreatedEntry(tournament.id, created!.stage, actor));
    const unrated = seeding === 'rating' && !input.from ? pool.filter((id) => !ratings.has(id)).length : undefined;
    return { ok: true, stage: stageView(created!), started, ...(unrated === undefined ? {} : { unrated }) };
  });
}

export type NextRound = { ok: true; stage: StageView; round: number } | { ok: false; reason: 'tournamentNotFound' | 'notFound' | 'finished' | NextRoundRefusal };

/**
 * Pairs a Swiss stage's next round inside the caller's transaction, its tournament locked: the new
 * matches written (their players told), the tournament's version moved. Answers every stage as
 * saved and the version it made.
 */
export async function pairRound(
  tx: Tx,
  tournament: TournamentRow,
  loaded: LoadedStage,
): Promise<{ ok: true; round: number; all: LoadedStage[]; version: number } | { ok: false; reason: NextRoundRefusal }> {
  if (loaded.stage.format !== 'swiss') return { ok: false, reason: 'notSwiss' };
  const ratings = await ratingsOf(tx, tournament, loaded.groups.flat());
  // The disqualified are paired no more (nor given a bye's points).
  const out = new Set(loaded.stage.disqualified);
  const next = nextSwissRound(loaded.stage.settings, loaded.groups, loaded.resolved, ratings, out);
  if (!next.ok) return next;
  const groupRows = await tx.select().from(stageGroups).where(eq(stageGroups.stageId, loaded.stage.id));
  const groupIds = new Map(groupRows.map((g) => [g.number, g.id]));
  const fresh = resolveStage(next.plan, [], new Map(), out);
  await insertMatches(tx, loaded.stage.id, next.plan, fresh, groupIds, tournament);
  const all = await loadStages(tx, tournament.id);
  const { version } = await bumpTournament(tx, tournament, all);
  return { ok: true, round: next.round, all, version };
}

/** Whether a stage pairs its next round by itself now: a Swiss stage with `autoPair` whose round is over and which goes on. */
export const pairsItselfNow = (loaded: LoadedStage): boolean =>
  loaded.stage.format === 'swiss' && loaded.stage.settings.autoPair === true && isStageComplete(loaded.resolved) && !finished(loaded);

/** Pairs the next Swiss round of a stage (`POST …/stages/{stageId}/next-round`). */
async function writeNextRound(db: Tx, tournamentId: string, stageId: string): Promise<NextRound> {
  return db.transaction(async (tx): Promise<NextRound> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'tournamentNotFound' };
    const loaded = (await loadStages(tx, tournamentId)).find((s) => s.stage.id === stageId);
    if (!loaded) return { ok: false, reason: 'notFound' };
    if (isFinished(tournament.status)) return { ok: false, reason: 'finished' };
    const paired = await pairRound(tx, tournament, loaded);
    if (!paired.ok) return paired;
    return { ok: true, stage: stageView(paired.all.find((s) => s.stage.id === stageId)!), round: paired.round };
  });
}

/** A stage created: once it committed, the tournament's viewers hear of it. */
export const createStage = publishing(writeStage, (_created, _db, tournamentId) => ({ tournamentId, kind: 'stage' }));

/** A Swiss round paired: once it committed, the tournament's viewers hear of it. */
export const pairNextRound = publishing(writeNextRound, (_next, _db, tournamentId) => ({ tournamentId, kind: 'stage' }));
