import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import ical, { type ICalCalendar } from 'ical-generator';
import { DateTime } from 'luxon';
import { checkInWindow } from '../../../lib/domain/registration.ts';
import { SITE_TIME_ZONE } from '../../../lib/i18n/format.ts';
import { translate, type Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { stageMatches, stages, tournaments, users } from '../../db/schema/index.ts';
import { approvedParticipants } from '../match-day/participants.ts';
import { participantNames, participationMatches, participations, type Participation } from '../match-day/my-matches.ts';
import { newToken } from '../accounts/tokens.ts';
import { changed } from '../live/changes.ts';

/*
 * iCalendar feeds (issue 22, RFC 5545): a tournament's (its start, its check-in window, its
 * scheduled matches) and a player's own (the same for every tournament they or their teams take
 * part in, only their own matches). Times carry the site's zone (TZID=Europe/Kyiv with its
 * VTIMEZONE), so a calendar in any zone shows them right. UIDs are fixed per thing, and DTSTAMP
 * is the thing's last change (a published feed has no METHOD), so an unchanged feed reads the
 * same bytes, the same ETag.
 */

/** A match has no end; a calendar shows it this long. */
const MATCH_MINUTES = 60;
/** A tournament's event lasts at least this long, and until its last scheduled match ends. */
const TOURNAMENT_MINUTES = 120;
const UID_DOMAIN = 'kiberarena';

type TournamentRow = typeof tournaments.$inferSelect;
type MatchRow = typeof stageMatches.$inferSelect;

/**
 * The VTIMEZONE of a zone. The library's zone data (tz 2018) knows Kyiv by its older name, whose
 * rules are the same.
 */
function vtimezone(zone: string): string {
  const older: Record<string, string> = { 'Europe/Kyiv': 'Europe/Kiev' };
  const found = getVtimezoneComponent(zone) ?? (older[zone] ? getVtimezoneComponent(older[zone])?.replaceAll(older[zone], zone) : null);
  if (!found) throw new Error(`no VTIMEZONE for ${zone}`);
  return found.replace(/\r?\n/g, '\r\n');
}

const local = (at: Date) => DateTime.fromJSDate(at, { zone: SITE_TIME_ZONE });
const plus = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

interface Feed {
  calendar: ICalCalendar;
  locale: Locale;
  siteUrl: string;
}

function feed(name: string, locale: Locale, siteUrl: string): Feed {
  const calendar = ical({
    name,
    prodId: { company: 'Кіберарена', product: 'calendar', language: locale.toUpperCase() },
    x: { 'X-WR-TIMEZONE': SITE_TIME_ZONE },
  });
  return { calendar, locale, siteUrl };
}

/**
 * Adds an event in the site's zone. DTSTAMP and LAST-MODIFIED are the thing's last change, in UTC
 * (ical-generator writes UTC when the calendar itself names no zone).
 */
function addEvent(f: Feed, uid: string, e: { start: Date; end: Date; summary: string; url: string; changed: Date; description?: string }) {
  f.calendar.createEvent({
    id: `${uid}@${UID_DOMAIN}`,
    timezone: SITE_TIME_ZONE,
    start: local(e.start),
    end: local(e.end),
    summary: e.summary,
    url: e.url,
    stamp: e.changed,
    lastModified: e.changed,
    ...(e.description ? { description: e.description } : {}),
  });
}

function addTournament(f: Feed, t: TournamentRow, matches: readonly MatchRow[]) {
  const lastMatch = Math.max(0, ...matches.map((m) => m.scheduledAt!.getTime() + MATCH_MINUTES * 60_000));
  addEvent(f, `tournament-${t.id}`, {
    start: t.date,
    end: new Date(Math.max(plus(t.date, TOURNAMENT_MINUTES).getTime(), lastMatch)),
    summary: t.title,
    url: `${f.siteUrl}/tournaments/${t.id}`,
    changed: t.updatedAt,
  });
  if (t.checkInEnabled) {
    const { opensAt, closesAt } = checkInWindow(t);
    addEvent(f, `check-in-${t.id}`, {
      start: opensAt,
      end: closesAt,
      summary: translate(f.locale, 'calendar.checkIn', { title: t.title }),
      url: `${f.siteUrl}/tournaments/${t.id}`,
      changed: t.updatedAt,
    });
  }
}

function addMatch(f: Feed, t: TournamentRow, m: MatchRow, names: ReadonlyMap<string, { name: string }>) {
  const name = (id: string | null) => (id && names.get(id)?.name) || translate(f.locale, 'calendar.unknownSide');
  addEvent(f, `match-${m.id}`, {
    start: m.scheduledAt!,
    end: plus(m.scheduledAt!, MATCH_MINUTES),
    summary: translate(f.locale, 'calendar.match', { a: name(m.participantA), b: name(m.participantB), title: t.title }),
    url: `${f.siteUrl}/matches/${m.id}`,
    changed: m.updatedAt,
  });
}

/** The text of a feed, the site's VTIMEZONE put before its first event (ical-generator does not write one unless the whole calendar is in a zone, which would put DTSTAMP out of UTC). */
function text(f: Feed): string {
  const body = f.calendar.toString();
  const at = body.indexOf('BEGIN:VEVENT');
  return at === -1 ? body : body.slice(0, at) + vtimezone(SITE_TIME_ZONE) + body.slice(at);
}

/** A tournament's feed (`GET /api/tournaments/{id}/calendar.ics`), in `locale`; null when there is no such tournament. */
export async function tournamentCalendar(db: Tx, tournamentId: string, locale: Locale, siteUrl: string): Promise<string | null> {
  const [t] = await db.select().from(tournaments).where(eq(tournaments.id, tournamentId));
  if (!t) return null;
  const [rows, participants] = await Promise.all([
    db
      .select({ match: stageMatches })
      .from(stageMatches)
      .innerJoin(stages, eq(stages.id, stageMatches.stageId))
      .where(and(eq(stages.tournamentId, t.id), isNotNull(stageMatches.scheduledAt)))
      .orderBy(stageMatches.scheduledAt, stageMatches.id),
    approvedParticipants(db, t),
  ]);
  const matches = rows.map((r) => r.match);
  const f = feed(t.title, locale, siteUrl);
  addTournament(f, t, matches);
  const names = new Map(participants.map((p) => [p._id, { name: p.name }]));
  for (const m of matches) addMatch(f, t, m, names);
  return text(f);
}

/**
 * A player's own feed (`GET /api/calendar/{token}.ics`), in their language: the tournaments they
 * and their teams take part in, with check-in, and only their own scheduled matches. Null for a
 * token nobody holds (never issued, or revoked).
 */
export async function personalCalendar(db: Tx, token: string, siteUrl: string): Promise<string | null> {
  const [user] = await db.select({ id: users.id, username: users.username, locale: users.locale }).from(users).where(eq(users.calendarToken, token));
  if (!user) return null;
  const list: Participation[] = await participations(db, user.id);
  const rows = await participationMatches(db, list, isNotNull(stageMatches.scheduledAt));
  const solo = new Set(list.filter((p) => p.tournament.soloOnly).map((p) => p.tournament.id));
  const ids = { users: new Set<string>(), teams: new Set<string>() };
  for (const { match, tournamentId } of rows)
    for (const id of [match.participantA, match.participantB]) if (id) ids[solo.has(tournamentId) ? 'users' : 'teams'].add(id);
  const names = await participantNames(db, { users: [...ids.users], teams: [...ids.teams] });
  const f = feed(translate(user.locale, 'calendar.personalName', { name: user.username }), user.locale, siteUrl);
  for (const p of [...list].sort((x, y) => x.tournament.date.getTime() - y.tournament.date.getTime() || x.tournament.id.localeCompare(y.tournament.id))) {
    const mine = rows
      .filter((r) => r.tournamentId === p.tournament.id)
      .map((r) => r.match)
      .sort((x, y) => x.scheduledAt!.getTime() - y.scheduledAt!.getTime() || x.id.localeCompare(y.id));
    addTournament(f, p.tournament, mine);
    for (const m of mine) addMatch(f, p.tournament, m, names);
  }
  return text(f);
}

/** The user's calendar token, made on the first ask (a guarded update: two first asks agree on one). */
export async function calendarToken(db: Tx, userId: string): Promise<string> {
  const [made] = await db
    .update(users)
    .set({ calendarToken: newToken() })
    .where(and(eq(users.id, userId), isNull(users.calendarToken)))
    .returning({ token: users.calendarToken });
  if (made?.token) return made.token;
  const [held] = await db.select({ token: users.calendarToken }).from(users).where(eq(users.id, userId));
  return held!.token!;
}

/** Replaces the user's calendar token: the old address stops working at once. */
export async function revokeCalendarToken(db: Tx, userId: string): Promise<string> {
  const token = newToken();
  await db.update(users).set({ calendarToken: token }).where(eq(users.id, userId));
  changed('sessions');
  return token;
}

/** Whether a feed address's file part could be a token at all (43 base64url characters and `.ics`). */
export const tokenOfFile = (file: string): string | null => /^([A-Za-z0-9_-]{43})\.ics$/.exec(file)?.[1] ?? null;
