/**
 * A match's map veto (issue 58): the state anyone may read and the moves its sides make in turn.
 * The rules are lib/domain/veto.ts's; this keeps the log (`match_veto_moves`) and says who may move.
 *
 * A veto is on for a match whose stage asks for one (`settings.veto`), on the tournament's map pool
 * or else its game's, with the sequence the stage wrote for the match's best-of or the standard
 * one. The side that starts (chooses Team A or B) is the higher seed of the stage, or, when the
 * tournament asks for a coin toss or the seeds cannot tell, the winner of a toss the server makes:
 * a bit of the match's own random id, so every read tells the same before the first move records it.
 *
 * A move is numbered by the moves before it, and the number is the log's key: of two moves raced
 * on one state only the first is written, the other is refused (`raced`). No lock is needed, and
 * the competition's version does not move: a veto changes no result.
 */
import { createHash } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { VetoMoveInput, VetoView } from '../../../lib/api/veto.ts';
import type { Slot } from '../../../lib/domain/stage/format.ts';
import { isFinished } from '../../../lib/domain/tournament-status.ts';
import {
  sequenceProblem,
  serverStep,
  standardSequence,
  vetoRefusal,
  vetoState,
  type VetoMove,
  type VetoRefusal,
  type VetoStep,
} from '../../../lib/domain/veto.ts';
import type { Tx } from '../../db/client.ts';
import { games, matchVetoMoves } from '../../db/schema/index.ts';
import { lockedView } from '../competition/stages/match-changes.ts';
import type { LockedMatch } from '../competition/stages/store.ts';
import { publishing } from '../live/live.ts';
import { actingSide, actorsOf } from '../match-day/match-actions.ts';
import { findRoomMatch, higherSeed } from './people.ts';
import { awaitsCheckIn } from './check-in.ts';

type MoveRow = typeof matchVetoMoves.$inferSelect;

interface Loaded {
  found: LockedMatch;
  pool: string[];
  sides: string[];
  bestOf: number;
  sequence: VetoStep[];
  moves: MoveRow[];
}

export type VetoReadRefusal = 'notFound' | 'off';

/** The match's veto as configured, with its log; `off` when its stage has none or its pool cannot play its best-of. */
async function load(db: Tx, matchId: string, known?: LockedMatch): Promise<Loaded | VetoReadRefusal> {
  const found = known ?? (await findRoomMatch(db, matchId));
  if (!found) return 'notFound';
  const { tournament } = found;
  const settings = found.loaded.stage.settings.veto;
  if (!settings) return 'off';
  const [game] = await db.select({ maps: games.maps, sides: games.sides }).from(games).where(eq(games.id, tournament.gameId));
  const pool = tournament.maps ?? game?.maps ?? [];
  const sides = game?.sides ?? [];
  const { bestOf } = lockedView(found).rules;
  const sequence = settings.sequences?.[String(bestOf)] ?? standardSequence(pool.length, bestOf);
  if (!sequence || pool.length === 0 || sides.length !== 2 || sequenceProblem(sequence, pool.length, bestOf)) return 'off';
  const moves = await db.select().from(matchVetoMoves).where(eq(matchVetoMoves.matchId, matchId)).orderBy(asc(matchVetoMoves.number));
  return { found, pool, sides, bestOf, sequence, moves };
}

/** Who chooses Team A or B, and how it was decided; null while a side of the match is unknown. */
function starterOf({ found, moves }: Loaded): { starter: Slot | null; by: 'higherSeed' | 'coinToss' } {
  const { match } = lockedView(found);
  const recorded = moves[0]?.action === 'roles' ? moves[0].slot : null;
  const seeded = found.tournament.vetoStarter === 'higherSeed' ? higherSeed(found) : null;
  const by = seeded ? 'higherSeed' : 'coinToss';
  if (recorded) return { starter: recorded, by };
  if (!match.a || !match.b) return { starter: null, by };
  if (seeded) return { starter: seeded, by };
  return { starter: (createHash('sha256').update(`${match._id}:veto`).digest()[0]! & 1) === 0 ? 'a' : 'b', by };
}

const logOf = (moves: readonly MoveRow[]): VetoMove[] =>
  moves.map((m) =>
    m.action === 'roles'
      ? { action: 'roles', slot: m.slot!, role: m.role! }
      : m.action === 'side'
        ? { action: 'side', slot: m.slot!, side: m.side! }
        : { action: m.action, slot: m.slot, map: m.map! },
  );

function view(loaded: Loaded, checkInFirst: boolean): VetoView {
  const { starter, by } = starterOf(loaded);
  const state = starter ? vetoState(loaded.pool, loaded.sequence, starter, logOf(loaded.moves)) : null;
  const { match } = lockedView(loaded.found);
  const playing = match.status === 'ready' && !isFinished(loaded.found.tournament.status) && !checkInFirst;
  return {
    pool: loaded.pool,
    sides: loaded.sides,
    bestOf: loaded.bestOf,
    sequence: loaded.sequence,
    starter,
    startedBy: by,
    roleA: state?.roleA ?? null,
    remaining: state?.remaining ?? [...loaded.pool],
    banned: state?.banned ?? [],
    maps: state?.maps ?? [],
    checkInFirst,
    next: playing ? (state?.next ?? null) : null,
    done: state?.done ?? false,
    moves: loaded.moves.map((m) => ({
      number: m.number,
      action: m.action,
      slot: m.slot,
      map: m.map,
      side: m.side,
      role: m.role,
      at: m.createdAt.toISOString(),
    })),
  };
}

/** `GET /api/matches/{id}/veto`: the same for every reader. */
export async function readVeto(db: Tx, matchId: string): Promise<{ ok: true; veto: VetoView; tournamentId: string } | { ok: false; reason: VetoReadRefusal }> {
  const loaded = await load(db, matchId);
  if (typeof loaded === 'string') return { ok: false, reason: loaded };
  return { ok: true, veto: view(loaded, await awaitsCheckIn(db, loaded.found)), tournamentId: loaded.found.tournament.id };
}

export type VetoMoveRefusal = VetoReadRefusal | 'notSide' | 'notReady' | 'checkInFirst' | 'decided' | 'finished' | 'raced' | VetoRefusal;
export type VetoMoveDone = { ok: true; veto: VetoView; tournamentId: string; done: boolean } | { ok: false; reason: VetoMoveRefusal };

async function move(db: Tx, matchId: string, userId: string, input: VetoMoveInput): Promise<VetoMoveDone> {
  return db.transaction(async (tx): Promise<VetoMoveDone> => {
    // Whose side first: a stranger learns nothing of the match's veto.
    const found = await findRoomMatch(tx, matchId);
    if (!found) return { ok: false, reason: 'notFound' };
    const { match } = lockedView(found);
    const actors = await actorsOf(tx, found.tournament.soloOnly, [match.a, match.b]);
    const slot = actingSide(match, actors, userId);
    if (!slot) return { ok: false, reason: 'notSide' };
    const loaded = await load(tx, matchId, found);
    if (typeof loaded === 'string') return { ok: false, reason: loaded };
    if (isFinished(loaded.found.tournament.status)) return { ok: false, reason: 'finished' };
    if (match.status === 'completed') return { ok: false, reason: 'decided' };
    const { starter } = starterOf(loaded);
    if (match.status !== 'ready' || !starter) return { ok: false, reason: 'notReady' };
    if (await awaitsCheckIn(tx, found)) return { ok: false, reason: 'checkInFirst' };
    const log = logOf(loaded.moves);
    const refusal = vetoRefusal(loaded.pool, vetoState(loaded.pool, loaded.sequence, starter, log), slot, input);
    if (refusal) return { ok: false, reason: refusal };
    const made: VetoMove =
      input.action === 'roles'
        ? { action: 'roles', slot, role: input.role! }
        : input.action === 'side'
          ? { action: 'side', slot, side: input.side! }
          : { action: input.action, slot, map: input.map! };
    const number = loaded.moves.length;
    const written = await tx
      .insert(matchVetoMoves)
      .values(rowOf(matchId, number, made, userId))
      .onConflictDoNothing()
      .returning({ number: matchVetoMoves.number });
    if (written.length === 0) return { ok: false, reason: 'raced' };
    log.push(made);
    // The decider is the server's: taken as soon as it is due, in the same transaction.
    const auto = serverStep(loaded.sequence, vetoState(loaded.pool, loaded.sequence, starter, log), log);
    if (auto)
      await tx
        .insert(matchVetoMoves)
        .values(rowOf(matchId, number + 1, auto, null))
        .onConflictDoNothing();
    const after = await load(tx, matchId);
    if (typeof after === 'string') return { ok: false, reason: after };
    const shown = view(after, false);
    return { ok: true, veto: shown, tournamentId: after.found.tournament.id, done: shown.done };
  });
}

/** The maps a match's games are played on, in order, as far as its veto chose them; none without one. */
export async function playedMaps(db: Tx, found: LockedMatch): Promise<string[]> {
  const loaded = await load(db, lockedView(found).match._id, found);
  if (typeof loaded === 'string') return [];
  const { starter } = starterOf(loaded);
  return starter ? vetoState(loaded.pool, loaded.sequence, starter, logOf(loaded.moves)).maps.map((m) => m.map) : [];
}

/** A move as the log stores it. */
export function rowOf(matchId: string, number: number, made: VetoMove, userId: string | null): typeof matchVetoMoves.$inferInsert {
  return {
    matchId,
    number,
    action: made.action,
    slot: made.slot,
    map: 'map' in made ? made.map : null,
    side: made.action === 'side' ? made.side : null,
    role: made.action === 'roles' ? made.role : null,
    userId,
  };
}

/** `POST /api/matches/{id}/veto`: a side's move; its viewers redraw the veto. */
export const moveVetoOf = publishing(move, (done, _db, matchId) => ({ tournamentId: done.tournamentId, kind: 'veto', matchId }));
