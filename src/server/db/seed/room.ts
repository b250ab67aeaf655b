/**
 * A match room in the demo (issue 58): the Dota 2 ranked duels ask both sides to check in to each match.
 * One of its ready matches is set for tonight: its first side checked in, the organiser put the
 * server's details on it and the two talked in its chat, so the room shows each part on a fresh
 * start. Its check-in runs until ten minutes after its time; the demo's other matches became ready
 * before the check-in was asked for and have no timer (`ready_at` empty), as the migration's matches.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../client.ts';
import { matchActionFactory } from '../factories/index.ts';
import { matchCheckIns, matchMessages, matchRooms, stageMatches, stages, tournaments, users } from '../schema/index.ts';

const MINUTE = 60_000;

export interface RoomPlan {
  now: Date;
  tournamentId: string;
  /** Who acts for a participant (the player; a team's captain). */
  actorOf: (participantId: string) => { userId: string; name: string } | undefined;
}

export async function seedRoom(tx: Tx, { now, tournamentId, actorOf }: RoomPlan): Promise<void> {
  const [match] = await tx
    .select({ id: stageMatches.id, a: stageMatches.participantA, b: stageMatches.participantB, scheduledAt: stageMatches.scheduledAt })
    .from(stageMatches)
    .innerJoin(stages, eq(stages.id, stageMatches.stageId))
    .where(and(eq(stages.tournamentId, tournamentId), eq(stageMatches.status, 'ready'), isNull(stageMatches.reportState), isNull(stageMatches.calledAt)))
    .orderBy(asc(stageMatches.round), asc(stageMatches.position))
    .limit(1);
  const [organiser] = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  if (!match?.a || !match.b || !organiser) return;
  const first = actorOf(match.a);
  const second = actorOf(match.b);
  if (!first || !second) return;
  await tx.update(tournaments).set({ matchCheckInMinutes: 10 }).where(eq(tournaments.id, tournamentId));
  // Tonight, on the quarter hour some ninety minutes on: the check-in stays open through a demo's evening.
  const tonight = new Date(Math.ceil((now.getTime() + 90 * MINUTE) / (15 * MINUTE)) * 15 * MINUTE);
  await tx
    .update(stageMatches)
    .set({ readyAt: new Date(now.getTime() - 20 * MINUTE), scheduledAt: match.scheduledAt ?? tonight })
    .where(eq(stageMatches.id, match.id));
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * MINUTE);
  await tx.insert(matchCheckIns).values({ matchId: match.id, participantId: match.a, slot: 'a', userId: first.userId, createdAt: at(12) });
  await tx.insert(matchRooms).values({ matchId: match.id, lobby: 'Лобі: Kiberarena Duel 58\nПароль: arena58\nСервер: Europe West', lobbyBy: organiser.id, lobbyAt: at(8) });
  await matchActionFactory.insertMany(tx, [
    { matchId: match.id, kind: 'checkIn', userId: first.userId, side: 'a', createdAt: at(12) },
    { matchId: match.id, kind: 'lobby', userId: organiser.id, side: null, createdAt: at(8) },
  ]);
  await tx.insert(matchMessages).values([
    { matchId: match.id, userId: first.userId, slot: 'a', message: 'Ми на місці. Граємо о призначеній годині?', createdAt: at(11) },
    { matchId: match.id, userId: organiser.id, slot: null, message: 'Так. Сервер піднято, дані лобі — у кімнаті матчу. Відмітьтеся обоє до початку.', createdAt: at(7) },
    { matchId: match.id, userId: second.userId, slot: 'b', message: 'Прийнято, будемо за пів години до старту.', createdAt: at(5) },
  ]);
}
