/**
 * A season's table (issue 59), computed when read from its finished tournaments' final places as
 * they are at that moment: stored totals would need every correction, disqualification and status
 * change to remember the season. The answer says it shows each of its tournaments' data, so any
 * result or status written in one of them makes held copies of the table out of date
 * (services/live/changes.ts), on every instance.
 */
import { inArray } from 'drizzle-orm';
import type { SeasonStandings } from '../../../lib/api/seasons.ts';
import { participantTypeOf } from '../../../lib/domain/participant.ts';
import { seasonTable, type CountedTournament } from '../../../lib/domain/season.ts';
import { isFinished } from '../../../lib/domain/tournament-status.ts';
import type { Tx } from '../../db/client.ts';
import { teams, users } from '../../db/schema/index.ts';
import type { UserRow } from '../accounts/accounts.ts';
import { placementsOfTournaments } from '../competition/stages/standings.ts';
import { shows, tournamentData } from '../live/changes.ts';
import { tournamentsOf, visibleSeason } from './seasons.ts';

/** Names of the participants, players' or teams', by id. */
async function namesOf(db: Tx, soloOnly: boolean, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = soloOnly
    ? await db.select({ id: users.id, name: users.username }).from(users).where(inArray(users.id, [...ids]))
    : await db.select({ id: teams.id, name: teams.name }).from(teams).where(inArray(teams.id, [...ids]));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * `GET /seasons/{id}/standings`: null for no season the reader may see. Each finished tournament
 * places its participants by its stages (`placementsOfTournaments`, as the profiles do); one played
 * without stages places its named winner first, as SPEC's winner says.
 */
export async function seasonStandings(db: Tx, id: string, viewer: Pick<UserRow, 'role'> | null): Promise<SeasonStandings | null> {
  shows('seasons');
  const season = await visibleSeason(db, id, viewer);
  if (!season) return null;
  const list = await tournamentsOf(db, season);
  shows(...list.map((t) => tournamentData(t.id)));
  const finished = list.filter((t) => isFinished(t.status));
  const staged = await placementsOfTournaments(
    db,
    finished.map((t) => t.id),
  );
  const counted: CountedTournament[] = finished.map((t) => {
    const placements = [...(staged.get(t.id)?.placements ?? [])];
    const winnerType = participantTypeOf(t.soloOnly);
    if (t.winnerId && t.winnerType === winnerType && !placements.some((p) => p.participant === t.winnerId)) {
      placements.push({ participant: t.winnerId, from: 1, to: 1 });
    }
    return { id: t.id, date: t.date.toISOString(), placements };
  });
  const soloOnly = season.soloOnly ?? list[0]?.soloOnly ?? false;
  const ids = [...new Set(counted.flatMap((t) => t.placements.map((p) => p.participant)))];
  const names = await namesOf(db, soloOnly, ids);
  const rows = seasonTable(season.pointsByPlace, counted, (participant) => names.get(participant) ?? '');
  return {
    season: { _id: season.id, name: season.name, pointsByPlace: season.pointsByPlace, soloOnly: season.soloOnly },
    tournaments: list.map((t) => ({ _id: t.id, title: t.title, date: t.date.toISOString(), status: t.status, soloOnly: t.soloOnly, counted: isFinished(t.status) })),
    rows: rows.map((row) => ({
      rank: row.rank,
      participant: { type: participantTypeOf(soloOnly), _id: row.participant, name: names.get(row.participant) ?? '' },
      total: row.total,
      best: row.best,
      results: row.results,
    })),
  };
}
