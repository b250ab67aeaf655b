import { eq } from 'drizzle-orm';
import type { BracketParticipant } from '../../lib/api/bracket.ts';
import { createBracket, findProblem, isBye, MIN_PARTICIPANTS, type Bracket, type BracketProblem, type Seeding } from '../../lib/domain/bracket.ts';
import { normalizeStatus } from '../../lib/domain/tournament-status.ts';
import type { Tx } from '../db/client.ts';
import { tournaments } from '../db/schema/index.ts';
import { approvedParticipants } from './participants.ts';

type TournamentRow = typeof tournaments.$inferSelect;

/** The tournament row, locked for the rest of the transaction so bracket saves queue up. */
export async function lockTournament(db: Tx, id: string): Promise<TournamentRow | undefined> {
  const [row] = await db.select().from(tournaments).where(eq(tournaments.id, id)).for('update');
  return row;
}

export async function findTournamentRow(db: Tx, id: string): Promise<TournamentRow | undefined> {
  const [row] = await db.select().from(tournaments).where(eq(tournaments.id, id));
  return row;
}

/** Whether a bracket has a played result (byes do not count): drawing over it loses them. */
export const hasResults = (bracket: Bracket) => bracket.some((round, r) => round.matches.some((m) => m.winner && !isBye(r, m)));

export type Draw =
  | { ok: true; row: TournamentRow; bracket: Bracket; version: number; participants: BracketParticipant[]; started: boolean }
  | { ok: false; reason: 'notFound' | 'hasResults' | 'noParticipants' | 'needTwo' };

/**
 * Draws the bracket from the approved participants (SPEC §4 Bracket creation) in one transaction.
 * The draw closes applications: a pending tournament becomes started with it (`started` tells).
 * Drawing over played results needs `replace`.
 */
export async function drawBracket(db: Tx, id: string, options: { seeding: Seeding; replace: boolean }): Promise<Draw> {
  return db.transaction(async (tx) => {
    const row = await lockTournament(tx, id);
    if (!row) return { ok: false, reason: 'notFound' } as const;
    if (hasResults(row.bracket) && !options.replace) return { ok: false, reason: 'hasResults' } as const;
    const participants = await approvedParticipants(tx, row);
    if (participants.length === 0) return { ok: false, reason: 'noParticipants' } as const;
    if (participants.length < MIN_PARTICIPANTS) return { ok: false, reason: 'needTwo' } as const;
    const bracket = createBracket(
      participants.map((p) => p._id),
      options.seeding,
    );
    const version = row.bracketVersion + 1;
    const started = normalizeStatus(row.status) === 'pending';
    await tx
      .update(tournaments)
      .set({ bracket, bracketVersion: version, ...(started ? { status: 'started' as const } : {}), updatedAt: new Date() })
      .where(eq(tournaments.id, id));
    return { ok: true, row: started ? { ...row, status: 'started' } : row, bracket, version, participants, started } as const;
  });
}

export type BracketSave =
  | { ok: true; stale: false; row: TournamentRow; participants: BracketParticipant[]; version: number }
  /** The save was based on an older version: nothing changed, and `row` holds the newer bracket. */
  | { ok: true; stale: true; row: TournamentRow; participants: BracketParticipant[] }
  | { ok: false; reason: 'notFound' }
  | { ok: false; reason: 'invalid'; problem: BracketProblem };

/**
 * Saves an edited bracket (SPEC §4) in one transaction, the tournament row locked so saves queue
 * up: a save based on an older version than the stored one (`expected`) changes nothing; a bracket
 * the engine finds wrong against the participants (`findProblem`) is refused; an empty one clears it.
 */
export async function saveBracket(db: Tx, id: string, bracket: Bracket, expected: number | undefined): Promise<BracketSave> {
  return db.transaction(async (tx) => {
    const row = await lockTournament(tx, id);
    if (!row) return { ok: false, reason: 'notFound' } as const;
    const participants = await approvedParticipants(tx, row);
    if (expected !== undefined && expected !== row.bracketVersion) return { ok: true, stale: true, row, participants } as const;
    if (bracket.length > 0) {
      const problem = findProblem(
        bracket,
        participants.map((p) => p._id),
      );
      if (problem) return { ok: false, reason: 'invalid', problem } as const;
    }
    const version = row.bracketVersion + 1;
    await tx.update(tournaments).set({ bracket, bracketVersion: version, updatedAt: new Date() }).where(eq(tournaments.id, id));
    return { ok: true, stale: false, row, participants, version } as const;
  });
}
