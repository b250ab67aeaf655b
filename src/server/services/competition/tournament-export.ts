/**
 * A tournament's files for its organisers (issue 60, decision 040): participants, matches and final
 * places as CSV that Excel set to Ukrainian opens as it is — UTF-8 with a byte order mark, fields
 * separated by `;`, lines by CRLF. csv-stringify quotes; `textCell` keeps names from being read as
 * formulas. Headers and words are in the reader's language; times in the tournament's zone (Kyiv's
 * when it has none), named in the header. No email: nothing on the site shows an organiser a
 * participant's address.
 */
import { eq, inArray } from 'drizzle-orm';
import { stringify } from 'csv-stringify/sync';
import { DateTime } from 'luxon';
import type { StageMatchView, StageView } from '../../../lib/api/stages.ts';
import type { TournamentApplication } from '../../../lib/api/tournaments.ts';
import { roundKind } from '../../../lib/domain/bracket.ts';
import { seedNumber } from '../../../lib/domain/stage/build.ts';
import { CSV_DELIMITER, textCell, type ExportFile } from '../../../lib/domain/spreadsheet.ts';
import { SITE_TIME_ZONE } from '../../../lib/i18n/format.ts';
import { t } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { applications, teams, tournaments, users } from '../../db/schema/index.ts';
import { competition } from './stages/views.ts';
import { loadApplications } from './tournaments.ts';

type TournamentRow = typeof tournaments.$inferSelect;
type Cell = string | number;

/** One file: its text, and its name for `Content-Disposition` (readable, and ASCII for old clients). */
export interface ExportedFile {
  body: string;
  name: string;
  asciiName: string;
}

/** The rows as CSV text: a BOM, then header and rows separated by `;`, CRLF between lines. */
const csvText = (header: readonly string[], rows: readonly (readonly Cell[])[]): string =>
  stringify([header, ...rows], { bom: true, delimiter: CSV_DELIMITER, record_delimiter: 'windows' });

/** A moment as a spreadsheet reads a date and time, in `zone` («2030-05-01 19:00»); '' for none. */
const when = (moment: Date | string | null | undefined, zone: string): string =>
  moment ? DateTime.fromJSDate(new Date(moment)).setZone(zone).toFormat('yyyy-MM-dd HH:mm') : '';

/** A name as a cell: as written, unless it starts like a formula. */
const name = (value: string | null | undefined): string => textCell(value ?? '');

/** Letters for groups, as the stage pages name them (A, B, …). */
const groupLetter = (group: number): string => String.fromCharCode(64 + group);

/** The round a match is in, as the bracket pages word it: a group's, a bracket side's, or a plain round. */
function roundOf(stage: StageView, match: StageMatchView): string {
  const round = t('bracket.round.round', { number: match.round });
  if (match.group !== null && stage.groups.length > 1) return `${t('stages.group', { letter: groupLetter(match.group) })}, ${round.toLowerCase()}`;
  switch (match.side) {
    case 'winners': {
      // The last rounds by their names, as the bracket page calls them: the final, the semi-finals, the quarter-finals.
      const rounds = Math.max(...stage.matches.filter((m) => m.side === 'winners').map((m) => m.round));
      const kind = roundKind(match.round - 1, rounds);
      return kind === 'round' ? round : t(`bracket.round.${kind}`);
    }
    case 'losers':
      return t('stages.round.losers', { number: match.round });
    case 'grand_final':
      return match.round === 1 ? t('stages.round.grandFinal') : t('stages.round.grandFinalReset');
    case 'third_place':
      return t('stages.round.thirdPlace');
    default:
      return round;
  }
}

/** A stage's name as its page shows it: its own, or «Етап N». */
const stageName = (stage: Pick<StageView, 'name' | 'number'>): string => stage.name || t('matchPage.stage', { number: stage.number });

/** The names of every participant the stages mention: the approved ones, and anyone since removed (read by id). */
async function namesOf(db: Tx, soloOnly: boolean, known: ReadonlyMap<string, string>, ids: Iterable<string>): Promise<Map<string, string>> {
  const names = new Map(known);
  const missing = [...new Set(ids)].filter((id) => !names.has(id));
  if (missing.length > 0) {
    const rows = soloOnly
      ? await db.select({ id: users.id, name: users.username }).from(users).where(inArray(users.id, missing))
      : await db.select({ id: teams.id, name: teams.name }).from(teams).where(inArray(teams.id, missing));
    for (const row of rows) names.set(row.id, row.name);
  }
  return names;
}

/** Every application, oldest first: name (and a team's captain and players), status, seed in the first stage, when applied and checked in. */
function participantsFile(tournament: TournamentRow, list: readonly TournamentApplication[], firstStage: StageView | undefined, zone: string) {
  const seedOf = (id: string): Cell => (firstStage ? (seedNumber(firstStage, id) ?? '') : '');
  const status = (a: TournamentApplication) => t(`applications.state.${a.status}`);
  const times = (a: TournamentApplication) => [when(a.createdAt, zone), when(a.checkedInAt, zone)];
  const timeHeaders = [t('export.column.appliedAt', { zone }), t('export.column.checkedInAt', { zone })];
  if (tournament.soloOnly) {
    return csvText(
      [t('export.column.player'), t('export.column.status'), t('export.column.seed'), ...timeHeaders],
      list.filter((a) => !a.team).map((a) => [name(a.user.username), status(a), seedOf(a.user._id), ...times(a)]),
    );
  }
  return csvText(
    [t('export.column.team'), t('export.column.captain'), t('export.column.players'), t('export.column.status'), t('export.column.seed'), ...timeHeaders],
    list.flatMap((a) => {
      if (!a.team) return [];
      const team = a.team;
      const captain = team.members.find((m) => m._id === team.captain)?.username ?? a.user.username;
      return [[name(team.name), name(captain), name(team.members.map((m) => m.username).join(', ')), status(a), seedOf(team._id), ...times(a)]];
    }),
  );
}

/** Every match of every stage in plan order, and every free-for-all lobby, with its sides, score, status and times. */
function matchesFile(stages: readonly StageView[], names: ReadonlyMap<string, string>, zone: string) {
  const side = (id: string | null) => (id ? name(names.get(id) ?? '') : '');
  const rows: Cell[][] = [];
  for (const stage of stages) {
    for (const match of [...stage.matches].sort((x, y) => x.number - y.number)) {
      const score = match.status === 'completed' && !match.bye && match.scoreA !== null && match.scoreB !== null ? `${match.scoreA}:${match.scoreB}` : '';
      const forfeit = match.forfeit ? match[match.forfeit] : null;
      const result = match.bye ? t('export.bye') : forfeit ? t('export.forfeit', { name: names.get(forfeit) ?? '' }) : score;
      rows.push([
        name(stageName(stage)),
        roundOf(stage, match),
        `M${match.number}`,
        side(match.a),
        side(match.b),
        result,
        side(match.winner),
        t(`bracket.state.${match.status}`),
        when(match.scheduledAt, zone),
        when(match.completedAt, zone),
      ]);
    }
    for (const lobby of stage.lobbies) {
      const leader = lobby.complete ? (lobby.table[0]?.participant ?? null) : null;
      rows.push([
        name(stageName(stage)),
        t('stages.ffa.round', { number: lobby.round }),
        t('stages.ffa.lobby', { number: lobby.number }),
        name(lobby.members.map((id) => names.get(id) ?? '').join(', ')),
        '',
        '',
        side(leader),
        t(`bracket.state.${lobby.complete ? 'completed' : lobby.members.length > 1 ? 'ready' : 'waiting'}`),
        when(lobby.scheduledAt, zone),
        '',
      ]);
    }
  }
  return csvText(
    [
      t('export.column.stage'),
      t('export.column.round'),
      t('export.column.match'),
      t('export.column.sideA'),
      t('export.column.sideB'),
      t('export.column.score'),
      t('export.column.winner'),
      t('export.column.status'),
      t('export.column.scheduledAt', { zone }),
      t('export.column.completedAt', { zone }),
    ],
    rows,
  );
}

/** The final places known so far, best first; a shared band reads «3–4». Without stages, the named winner is first. */
function placesFile(placements: readonly { participant: string; from: number; to: number }[], names: ReadonlyMap<string, string>) {
  return csvText(
    [t('export.column.place'), t('export.column.participant')],
    [...placements].sort((x, y) => x.from - y.from).map((p) => [p.from === p.to ? p.from : `${p.from}–${p.to}`, name(names.get(p.participant) ?? '')]),
  );
}

/** A title as part of a file name: no characters a file system refuses, no control characters, at most 80 characters. */
const fileTitle = (title: string): string =>
  title
    .replace(/[\p{Cc}\p{Cf}\\/:*?"<>|]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);

/** One of the tournament's files, or null when there is no such tournament. */
export async function exportFile(db: Tx, tournamentId: string, file: ExportFile): Promise<ExportedFile | null> {
  const [tournament] = await db.select().from(tournaments).where(eq(tournaments.id, tournamentId));
  if (!tournament) return null;
  const zone = tournament.timeZone ?? SITE_TIME_ZONE;
  const kind = t(`export.fileName.${file}`);
  const files = {
    name: `${fileTitle(tournament.title) || tournament.id.slice(0, 8)} — ${kind}.csv`,
    asciiName: `tournament-${tournament.id.slice(0, 8)}-${file}`,
  };
  if (file === 'participants.csv') {
    const [list, { state }] = await Promise.all([loadApplications(db, eq(applications.tournamentId, tournament.id)), competition(db, tournament)]);
    return { ...files, body: participantsFile(tournament, list, state.stages[0], zone) };
  }
  const { state, standings } = await competition(db, tournament);
  const known = new Map(state.participants.map((p) => [p._id, p.name]));
  if (file === 'matches.csv') {
    const ids = state.stages
      .flatMap((s) => [...s.matches.flatMap((m) => [m.a, m.b, m.winner]), ...s.lobbies.flatMap((l) => l.members)])
      .filter((id): id is string => Boolean(id));
    return { ...files, body: matchesFile(state.stages, await namesOf(db, tournament.soloOnly, known, ids), zone) };
  }
  const placements = [...standings.placements];
  // A tournament played without stages places its named winner first, as seasons count it.
  if (placements.length === 0 && tournament.winnerId && tournament.winnerType === (tournament.soloOnly ? 'user' : 'team')) {
    placements.push({ participant: tournament.winnerId, from: 1, to: 1, name: '' });
  }
  const names = await namesOf(
    db,
    tournament.soloOnly,
    new Map([...known, ...standings.placements.filter((p) => p.name).map((p) => [p.participant, p.name] as const)]),
    placements.map((p) => p.participant),
  );
  return { ...files, body: placesFile(placements, names) };
}
