/**
 * The demo's seasons (issue 59): the school's League of Legends league adds up its finished cups
 * into one table, with its next cup waiting to count, so the organisation's page lists a season and
 * its page shows a table at once.
 */
import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '../client.ts';
import { seasonFactory } from '../factories/index.ts';
import { organisations, tournaments } from '../schema/index.ts';

interface DemoSeason {
  /** The organisation running it, by slug. */
  organisation: string;
  name: string;
  pointsByPlace: number[];
  /** Its tournaments, by the demo's keys; they share one game and kind. */
  tournaments: string[];
  /** Who made it, by nickname: one of the organisation's owner and admins. */
  by: string;
}

export const DEMO_SEASONS: DemoSeason[] = [
  {
    organisation: 'odesa-esports-school',
    name: 'Шкільна ліга LoL: сезон',
    pointsByPlace: [100, 70, 50, 35, 25, 15],
    tournaments: ['lol-first-season', 'lol-spring-cup', 'lol-slobozhanshchyna'],
    by: 'OdesaWave',
  },
];

/** Writes the demo's seasons: `userId` and `tournamentId` find the demo's rows by nickname and key; `at` makes a moment `days` from now. */
export async function seedSeasons(
  tx: Tx,
  { userId, tournamentId, at }: { userId: (nick: string) => string; tournamentId: (key: string) => string; at: (days: number) => Date },
): Promise<void> {
  for (const demo of DEMO_SEASONS) {
    const [host] = await tx.select({ id: organisations.id }).from(organisations).where(eq(organisations.slug, demo.organisation));
    const ids = demo.tournaments.map(tournamentId);
    const [first] = await tx.select({ gameId: tournaments.gameId, soloOnly: tournaments.soloOnly }).from(tournaments).where(eq(tournaments.id, ids[0]!));
    if (!host || !first) throw new Error(`demo seed: no host or tournaments for the season ${demo.name}`);
    const created = at(-35);
    const season = await seasonFactory.insert(tx, {
      organisationId: host.id,
      gameId: first.gameId,
      soloOnly: first.soloOnly,
      name: demo.name,
      pointsByPlace: demo.pointsByPlace,
      createdBy: userId(demo.by),
      createdAt: created,
      updatedAt: created,
    });
    await tx.update(tournaments).set({ seasonId: season.id }).where(inArray(tournaments.id, ids));
  }
}
