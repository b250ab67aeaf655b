import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { BracketParticipant } from '../../lib/api/bracket.ts';
import { createBracket, isBye, MIN_PARTICIPANTS, type Bracket, type Seeding } from '../../lib/domain/bracket.ts';
import { normalizeStatus } from '../../lib/domain/tournament-status.ts';
import type { Tx } from '../db/client.ts';
import { applications, teams, tournaments, users } from '../db/schema/index.ts';
import { avatarUrl } from './avatars.ts';

type TournamentRow = typeof tournaments.$inferSelect;

/**
 * Approved participants in the order they applied (SPEC §4: they fill the first round in order):
 * users of solo applications for solo tournaments, teams for team ones.
 */
export async function bracketParticipants(db: Tx, tournament: Pick<TournamentRow, 'id' | 'soloOnly'>): Promise<BracketParticipant[]> {
  const approved = and(eq(applications.tournamentId, tournament.id), eq(applications.status, 'approved'));
  if (tournament.soloOnly) {
    const rows = await db
      .select({ id: users.id, name: users.username, imageId: users.avatarImageId })
      .from(applications)
      .innerJoin(users, eq(users.id, applications.userId))
      .where(and(approved, isNull(applications.teamId)))
      .orderBy(asc(applications.createdAt), asc(applications.id));
    return rows.map((r) => ({ _id: r.id, name: r.name, image: avatarUrl(r.id, r.imageId) }));
  }
  const rows = await db
    .select({ id: teams.id, name: teams.name, image: teams.logoUrl })
    .from(applications)
    .innerJoin(teams, eq(teams.id, applications.teamId))
    .where(and(approved, sql`${applications.teamId} is not null`))
    .orderBy(asc(applications.createdAt), asc(applications.id));
  return rows.map((r) => ({ _id: r.id, name: r.name, image: r.image }));
}

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
    const participants = await bracketParticipants(tx, row);
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
