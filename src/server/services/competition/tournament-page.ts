import type { AuditEntryView } from '../../../lib/api/audit.ts';
import type { Page } from '../../../lib/api/paging.ts';
import type { StaffMember } from '../../../lib/api/staff.ts';
import type { StagesState, TournamentStandings } from '../../../lib/api/stages.ts';
import type { TournamentDetail } from '../../../lib/api/tournaments.ts';
import { normalizeStatus } from '../../../lib/domain/tournament-status.ts';
import type { Tx } from '../../db/client.ts';
import { historyOf } from './audit.ts';
import { competition } from './stages/views.ts';
import { staffRows } from './staff.ts';
import { getTournamentDetail, shownToPublic } from './tournaments.ts';

/** What the tournament page shows: the guest's answers of its five public reads. */
export interface TournamentPage {
  tournament: TournamentDetail;
  /** Its co-organisers (issue 23); empty when they could not be read: the page stands without them. */
  staff: StaffMember[];
  /** The latest of its history (issue 23); null when it could not be read. */
  history: Page<AuditEntryView> | null;
  /** Its stages and places (issue 21), once it has begun (a stage starts it); null before, or when they could not be read. */
  stages: StagesState | null;
  standings: TournamentStandings | null;
}

/**
 * Everything the tournament page shows a guest, as `GET /api/tournaments/{id}`, `…/staff`,
 * `…/history?limit=`, `…/stages` and `…/standings` answer a guest (the page is the same for every
 * guest; signed-in parts are islands), read straight from the services those routes call (issue
 * 24). Through the API in-process, each read cost a request, a route, an ETag digest and a JSON
 * round trip, and the stages and places read the tournament and its stages twice. A page waits for
 * its database one round trip after another, and on a busy machine each takes long: its co-organisers
 * and its history are read while the tournament is, its stages once its status is known (a pending
 * one has none). Undefined when there is no such tournament, or the public may not see it (`shownToPublic`).
 */
export async function tournamentPage(db: Tx, id: string, options: { historyLimit: number }): Promise<TournamentPage | undefined> {
  const [tournament, shown, staff, history] = await Promise.all([
    getTournamentDetail(db, id, null),
    shownToPublic(db, id),
    staffRows(db, id).catch(() => []),
    historyOf(db, id, { limit: options.historyLimit }, false).catch(() => null),
  ]);
  if (!tournament || !shown) return undefined;
  const begun = normalizeStatus(tournament.status) !== 'pending';
  const played = begun ? await competition(db, { id, soloOnly: tournament.soloOnly, bracketVersion: tournament.bracketVersion }).catch(() => null) : null;
  return {
    tournament,
    staff,
    history,
    stages: played?.state ?? null,
    standings: played ? { tournament: id, ...played.standings } : null,
  };
}
