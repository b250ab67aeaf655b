/**
 * The control room's read (issue 57): everything that waits for a tournament's organisers now, from
 * one load of its competition plus the few rows that load does not keep — the history of the
 * matches in question, who called, and the check-in list. Organisers only (the route's guard); never
 * held in a cache, so it is read for every request and after every event of the tournament.
 */
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { CheckInEntry, Claim, ControlMatch, ControlRoom } from '../../../lib/api/control-room.ts';
import type { StageMatchView } from '../../../lib/api/stages.ts';
import type { MatchAction } from '../../../lib/domain/match-day.ts';
import { checkInPhase, checkInWindow } from '../../../lib/domain/registration.ts';
import type { Tx } from '../../db/client.ts';
import { applications, isCompetitionDrawn, matchActions, stageMatches, stages, tournaments, users } from '../../db/schema/index.ts';
import { matchView } from '../competition/stages/views.ts';
import { loadCompetitionOf, type LoadedStage } from '../competition/stages/store.ts';
import { applicantNames } from './registration.ts';

/** The applications check-in is about: the lineup, the waitlist, and those dropped at its close. */
const CHECK_IN_LISTED = ['approved', 'waitlisted', 'noShow'] as const;

type ActionRow = {
  matchId: string;
  kind: MatchAction;
  side: 'a' | 'b' | null;
  user: string | null;
  scoreA: number | null;
  scoreB: number | null;
  games: Claim['games'] | null;
  reason: string;
  at: Date;
};

const claim = (row: ActionRow): Claim => ({
  side: row.side,
  user: row.user,
  scoreA: row.scoreA,
  scoreB: row.scoreB,
  games: row.games ?? [],
  reason: row.reason,
  at: row.at.toISOString(),
});

/** What the sides said since the match's last result (a result or reset starts the story again), and the call not yet answered. */
function story(actions: readonly ActionRow[]): Pick<ControlMatch, 'reports' | 'dispute' | 'call'> {
  const since = actions.findLastIndex((a) => a.kind === 'result' || a.kind === 'reset' || a.kind === 'confirm' || a.kind === 'autoConfirm');
  const recent = actions.slice(since + 1);
  const latest = (test: (a: ActionRow) => boolean) => {
    const found = recent.findLast(test);
    return found ? claim(found) : null;
  };
  const answered = actions.findLastIndex((a) => a.kind === 'callAnswered');
  // A match nobody checked in to (issue 58) waits for the organisers as a call without a side.
  const call = actions.slice(answered + 1).findLast((a) => a.kind === 'call' || (a.kind === 'noShow' && a.side === null));
  return {
    reports: { a: latest((a) => a.kind === 'report' && a.side === 'a'), b: latest((a) => a.kind === 'report' && a.side === 'b') },
    dispute: latest((a) => a.kind === 'dispute'),
    call: call ? claim(call) : null,
  };
}

const scheduled = (m: StageMatchView) => (m.scheduledAt ? Date.parse(m.scheduledAt) : Infinity);

export async function controlRoom(db: Tx, tournamentId: string, now = new Date()): Promise<ControlRoom | null> {
  const [row] = await db.select({ tournament: tournaments, drawn: isCompetitionDrawn }).from(tournaments).where(eq(tournaments.id, tournamentId));
  if (!row) return null;
  const { tournament, drawn } = row;
  const competition = await loadCompetitionOf(db, tournament);

  // Calls leave the competition's version alone, so the loaded rows may predate one: read them here.
  const called = await db
    .select({ id: stageMatches.id })
    .from(stageMatches)
    .where(
      and(
        inArray(stageMatches.stageId, db.select({ id: stages.id }).from(stages).where(eq(stages.tournamentId, tournamentId))),
        isNotNull(stageMatches.calledAt),
      ),
    );
  const calledIds = new Set(called.map((c) => c.id));

  const open: { loaded: LoadedStage; index: number; match: StageMatchView }[] = [];
  for (const loaded of competition.all) {
    loaded.rows.forEach((_, index) => {
      const match = matchView(loaded, index);
      if (match.status !== 'completed' || calledIds.has(match._id)) open.push({ loaded, index, match });
    });
  }
  const asked = open.filter(({ match }) => match.reportState !== null || calledIds.has(match._id)).map(({ match }) => match._id);
  const actions: ActionRow[] =
    asked.length === 0
      ? []
      : await db
          .select({
            matchId: matchActions.matchId,
            kind: matchActions.kind,
            side: matchActions.side,
            user: users.username,
            scoreA: matchActions.scoreA,
            scoreB: matchActions.scoreB,
            games: matchActions.games,
            reason: matchActions.reason,
            at: matchActions.createdAt,
          })
          .from(matchActions)
          .leftJoin(users, eq(users.id, matchActions.userId))
          .where(inArray(matchActions.matchId, asked))
          .orderBy(asc(matchActions.createdAt), asc(matchActions.id));

  const item = ({ loaded, index, match }: (typeof open)[number]): ControlMatch => {
    const { stage } = loaded;
    const told = story(actions.filter((a) => a.matchId === match._id));
    return {
      match,
      stage: { _id: stage.id, name: stage.name, number: stage.number, format: stage.format },
      ...told,
      call: calledIds.has(match._id) ? told.call : null,
      confirmBy: match.reportState === 'reported' ? (loaded.rows[index]!.confirmBy?.toISOString() ?? null) : null,
    };
  };
  const playing = open.filter(({ match }) => match.status !== 'completed');
  const byConfirmation = (x: ControlMatch, y: ControlMatch) => Date.parse(x.confirmBy ?? '') - Date.parse(y.confirmBy ?? '');

  return {
    tournament: {
      _id: tournament.id,
      title: tournament.title,
      status: tournament.status,
      date: tournament.date.toISOString(),
      soloOnly: tournament.soloOnly,
      drawn,
    },
    version: tournament.bracketVersion,
    participants: competition.participants,
    disputes: playing.filter(({ match }) => match.reportState === 'disputed').map(item),
    awaiting: playing
      .filter(({ match }) => match.reportState === 'reported')
      .map(item)
      .sort(byConfirmation),
    calls: open.filter(({ match }) => calledIds.has(match._id)).map(item),
    ready: playing
      .filter(({ match }) => match.status === 'ready' && match.reportState === null)
      .sort((x, y) => scheduled(x.match) - scheduled(y.match))
      .map(item),
    checkIn: tournament.checkInEnabled ? await checkIn(db, tournament, now) : null,
  };
}

async function checkIn(db: Tx, tournament: typeof tournaments.$inferSelect, now: Date): Promise<NonNullable<ControlRoom['checkIn']>> {
  const phase = checkInPhase(tournament, now);
  const window = checkInWindow(tournament);
  const listed = await db
    .select()
    .from(applications)
    .where(and(eq(applications.tournamentId, tournament.id), inArray(applications.status, [...CHECK_IN_LISTED])))
    .orderBy(asc(applications.createdAt), asc(applications.id));
  const names = await applicantNames(db, listed);
  const order = (e: CheckInEntry) => (e.status === 'approved' && !e.checkedInAt ? 0 : e.status === 'noShow' ? 1 : e.status === 'waitlisted' ? 3 : 2);
  const entries: CheckInEntry[] = listed.map((a) => ({
    applicationId: a.id,
    name: names.get(a.id) ?? '',
    status: a.status,
    checkedInAt: a.checkedInAt?.toISOString() ?? null,
  }));
  return {
    phase: phase === 'disabled' ? 'notOpen' : phase,
    opensAt: window.opensAt.toISOString(),
    closesAt: window.closesAt.toISOString(),
    closedAt: tournament.checkInClosedAt?.toISOString() ?? null,
    // Stable: within each group, the order they applied in.
    entries: entries
      .map((e, i) => ({ e, i }))
      .sort((x, y) => order(x.e) - order(y.e) || x.i - y.i)
      .map(({ e }) => e),
  };
}
