import { and, inArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { earnedAchievements, teams } from '../../db/schema/index.ts';
import { notifyAll } from '../notices/notifications.ts';
import { competitorOf, keyOf } from './replay.ts';
import { achievementNotices, earningTeamMembers, storeEarned, type compiledAchievements } from './tournament-stats.ts';

type Compiled = ReturnType<typeof compiledAchievements>;

/**
 * Gives each competitor the game's achievements its replay reached and it does not hold, telling
 * the player or every member of the team once (only a newly stored row tells); with `takeBack`,
 * also removes the ones it holds whose condition held at no point of the replay. Achievements
 * whose condition does not compile are neither given nor taken.
 */
export async function settleAchievements(
  tx: Tx,
  compiled: Compiled,
  keys: readonly string[],
  reached: ReadonlyMap<string, ReadonlySet<string>>,
  takeBack: boolean,
  tournamentId: string,
) {
  if (compiled.length === 0 || keys.length === 0) return;
  const sides = keys.map((key) => ({ key, ...competitorOf(key)! }));
  const userIds = sides.filter((s) => s.type === 'user').map((s) => s.id);
  const teamIds = sides.filter((s) => s.type === 'team').map((s) => s.id);
  const achievementIds = compiled.map((c) => c.achievement._id);
  // Only a take-back needs what is held; new ones are told apart by `storeEarned`, whose insert
  // skips what a side holds already.
  const held = !takeBack
    ? []
    : await tx
        .select({
          id: earnedAchievements.id,
          achievementId: earnedAchievements.achievementId,
          userId: earnedAchievements.userId,
          teamId: earnedAchievements.teamId,
        })
        .from(earnedAchievements)
        .where(
          and(
            inArray(earnedAchievements.achievementId, achievementIds),
            or(
              userIds.length > 0 ? inArray(earnedAchievements.userId, userIds) : sql`false`,
              teamIds.length > 0 ? inArray(earnedAchievements.teamId, teamIds) : sql`false`,
            ),
          ),
        );
  const holderKey = (h: { userId: string | null; teamId: string | null }) => (h.userId ? keyOf('user', h.userId) : keyOf('team', h.teamId!));
  const holds = new Set(held.map((h) => `${holderKey(h)}|${h.achievementId}`));

  if (takeBack) {
    const lost = held.filter((h) => !reached.get(holderKey(h))?.has(h.achievementId)).map((h) => h.id);
    if (lost.length > 0) await tx.delete(earnedAchievements).where(inArray(earnedAchievements.id, lost));
  }

  const candidates = sides.flatMap((side) =>
    compiled
      .filter(({ achievement }) => reached.get(side.key)?.has(achievement._id) && !holds.has(`${side.key}|${achievement._id}`))
      .map(({ achievement }) => ({ side, achievement })),
  );
  const won = await storeEarned(tx, candidates);
  if (won.length === 0) return;

  // The notices name a team; its members hear of it.
  const members = await earningTeamMembers(tx, won);
  const earningTeams = [...new Set(members.map((m) => m.teamId))];
  const teamNames =
    earningTeams.length > 0
      ? new Map((await tx.select({ id: teams.id, name: teams.name }).from(teams).where(inArray(teams.id, earningTeams))).map((t) => [t.id, t.name]))
      : new Map<string, string>();
  await notifyAll(
    tx,
    achievementNotices(
      won.map(({ side, achievement }) => ({
        side: { type: side.type, id: side.id, name: teamNames.get(side.id) ?? '' },
        achievement,
      })),
      members,
      tournamentId,
    ),
  );
}
