import { count, inArray, like, or, sql } from 'drizzle-orm';
import { DEFAULT_MAP_POOLS, knownPoolOf } from '../../lib/domain/map-pool.ts';
import { nameSkeletons } from '../../lib/domain/names.ts';
import { hashPassword } from '../services/accounts/accounts.ts';
import { nameKeys } from '../services/accounts/names.ts';
import type { Database, Tx } from './client.ts';
import {
  applicationFactory,
  gameFactory,
  insertTeam,
  newsFactory,
  notificationFactory,
  teamInviteFactory,
  tournamentFactory,
  userFactory,
} from './factories/index.ts';
import { playMatchDay } from './seed/match-day.ts';
import { seedOrganisations } from './seed/organisations.ts';
import { seedSeasons } from './seed/seasons.ts';
import { seedVenues } from './seed/venues.ts';
import { seedVeto } from './seed/veto.ts';
import { seedRoom } from './seed/room.ts';
import { seedIntegrations } from './seed/integrations.ts';
import { seedTelegram } from './seed/telegram.ts';
import { seedLinkedAccounts } from './seed/linked-accounts.ts';
import { seedApiKeys } from './seed/api-keys.ts';
import { seedFormats } from './seed/formats.ts';
import { playDemo } from './seed/play.ts';
import { GAMES, INVITE, NEWS, PLAYERS, STATS_GAMES, TEAMS, TOURNAMENTS, type DemoTournament, type GameSlug, type Nick, type TeamName } from './seed/content.ts';
import { games, teams, users } from './schema/index.ts';

/*
 * Demo content for a fresh database: games, players, teams, tournaments in every status with
 * applications, news and notifications; then the played part (seed/play.ts): statistics for Dota 2
 * and Valorant, brackets of started and finished tournaments, recorded matches, ratings,
 * leaderboards and achievements. Dates are relative to the day it runs, so upcoming stays upcoming.
 * Rows are written by the factories the tests use too (db/factories), so they are as valid as theirs.
 *
 * Every demo player signs in with the password `demo12345`, by nickname or by the email
 * `<nickname>@demo.kiberarena.local` — for example `KozakSniper` (a member of «Київські Кіборги»)
 * or `Kyiv_Cyborg` (that team's captain).
 */
export const DEMO_PASSWORD = 'demo12345';
export const DEMO_EMAIL_DOMAIN = 'demo.kiberarena.local';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * Fills an empty database with the demo content. Writes only when there are no games yet and
 * the demo players do not exist already (so removing the demo games does not bring it back);
 * everything goes in one transaction. Returns whether anything was written.
 */
export async function seedDemo(db: Database): Promise<boolean> {
  // Cheap check first, so a seeded database never pays for password hashing.
  if (!(await isEmpty(db))) return false;
  return db.transaction(async (tx) => {
    // Two processes starting on one PostgreSQL must not both seed: the second waits, then sees games.
    await tx.execute(sql`lock table ${games} in share row exclusive mode`);
    if (!(await isEmpty(tx))) return false;
    await writeDemo(tx, new Date());
    return true;
  });
}

async function isEmpty(db: Tx): Promise<boolean> {
  const [gameCount] = await db.select({ n: count() }).from(games);
  if ((gameCount?.n ?? 0) > 0) return false;
  const [demoUsers] = await db
    .select({ n: count() })
    .from(users)
    .where(like(users.email, `%@${DEMO_EMAIL_DOMAIN}`));
  return (demoUsers?.n ?? 0) === 0;
}

async function writeDemo(tx: Tx, now: Date) {
  const at = (days: number, hourUtc = 16) => {
    const date = new Date(now.getTime() + days * DAY);
    date.setUTCHours(hourUtc, 0, 0, 0);
    return date;
  };
  // Today's tournament began a couple of hours ago; the others start at 19:00 Kyiv time.
  const dateOf = (t: DemoTournament) =>
    t.startsInHours !== undefined ? new Date(now.getTime() + t.startsInHours * HOUR) : t.day === 0 ? new Date(now.getTime() - 2 * HOUR) : at(t.day);
  /** A moment in the past, never later than now. */
  const past = (days: number, hourUtc = 12) => new Date(Math.min(at(days, hourUtc).getTime(), now.getTime() - 60_000));

  // Games.
  const gameRows = await gameFactory.insertMany(
    tx,
    GAMES.map((g, i) => {
      // CS2 and Valorant come with their competitive map pools (issue 58), as the migration gives a site's own.
      const known = knownPoolOf(g.name);
      const pool = known ? { maps: [...DEFAULT_MAP_POOLS[known].maps], sides: [...DEFAULT_MAP_POOLS[known].sides] } : {};
      return { name: g.name, image: `/games/${g.slug}.jpg`, createdAt: past(-90 + i), ...pool };
    }),
  );
  const gameId = (slug: GameSlug) => lookup(gameRows, GAMES.find((g) => g.slug === slug)!.name, (r) => r.name).id;

  // Players: one argon2 hash for everybody keeps the seed fast.
  const taken = await takenNames(tx);
  const nickOf = new Map<Nick, string>(PLAYERS.map((p) => [p, freeName(p, taken, (n, i) => `${n}${i + 1}`)]));
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const userRows = await userFactory.insertMany(
    tx,
    PLAYERS.map((p, i) => {
      const nick = nickOf.get(p)!;
      const joined = i === 0 ? now : past(-88 + (i - 1) * 0.4);
      return { username: nick, email: `${nick.toLowerCase()}@${DEMO_EMAIL_DOMAIN}`, passwordHash, emailConfirmedAt: joined, createdAt: joined };
    }),
  );
  const userIds = new Map<Nick, string>(PLAYERS.map((p) => [p, lookup(userRows, nickOf.get(p)!, (r) => r.username).id]));
  const userId = (nick: Nick) => userIds.get(nick)!;

  // Teams, members (captain joined first) and one open invite.
  const takenTeams = await takenTeamNames(tx);
  const teamIds = new Map<TeamName, string>();
  for (const [i, t] of TEAMS.entries()) {
    const row = await insertTeam(tx, {
      name: freeName(t.name, takenTeams, (n, k) => `${n} ${k + 2}`),
      logoUrl: t.logo ? `/teams/${t.logo}.png` : null,
      captainId: userId(t.members[0]!),
      createdAt: past(-80 + i * 2),
      members: t.members.map((m, k) => ({ userId: userId(m), joinedAt: past(-80 + i * 2 + k * 0.5) })),
    });
    teamIds.set(t.name, row.id);
  }
  const teamId = (name: TeamName) => teamIds.get(name)!;
  const captainOf = (name: TeamName) => userId(TEAMS.find((t) => t.name === name)!.members[0]!);

  await teamInviteFactory.insert(tx, {
    teamId: teamId(INVITE.team),
    userId: userId(INVITE.player),
    invitedById: captainOf(INVITE.team),
    createdAt: past(-2),
  });

  // Tournaments with their applications (brackets and winners come with the played part below).
  const tournamentRows = await tournamentFactory.insertMany(
    tx,
    TOURNAMENTS.map((t) => {
      return {
        title: t.title,
        description: t.description,
        date: dateOf(t),
        status: t.status,
        soloOnly: Boolean(t.solo),
        gameId: gameId(t.game),
        image: `/games/${t.game}.jpg`,
        bracket: [],
        maxParticipants: t.maxParticipants ?? null,
        timeZone: t.timeZone ?? null,
        // Check-in has been open a few minutes and closes 10 minutes before the start (the default).
        ...(t.checkedIn ? { checkInEnabled: true, checkInOpensAt: new Date(now.getTime() - 10 * 60_000) } : {}),
        createdAt: past(Math.min(t.day, 0) - 20),
        updatedAt: past(Math.min(t.day, 0) - 20),
      };
    }),
  );
  const tournamentIds = new Map(TOURNAMENTS.map((t, i) => [t.key, tournamentRows[i]!.id]));

  const applicationRows = await applicationFactory.insertMany(
    tx,
    TOURNAMENTS.flatMap((t) => {
      const tournamentId = tournamentIds.get(t.key)!;
      // Applications arrive in the weeks before the start (or over the last days, for upcoming ones).
      // `past` pins a day's hour, so the spacing is added after it: the order of applications is the order of k.
      const first = past(Math.min(t.day, 0) - 12).getTime();
      const when = (k: number) => new Date(first + k * 0.9 * DAY);
      const solo = (t.solo ?? []).map(([nick, status, comment], k) => ({
        tournamentId,
        userId: userId(nick),
        status,
        comment: comment ?? '',
        checkedInAt: t.checkedIn?.includes(nick) ? new Date(now.getTime() - (5 - k) * 60_000) : null,
        createdAt: when(k),
        updatedAt: when(k),
      }));
      const team = (t.team ?? []).map(([name, status, comment], k) => ({
        tournamentId,
        userId: captainOf(name),
        teamId: teamId(name),
        status,
        comment: comment ?? '',
        createdAt: when(k),
        updatedAt: when(k),
      }));
      return [...solo, ...team];
    }),
  );
  const applicationId = (key: string, nick: Nick) => applicationRows.find((a) => a.tournamentId === tournamentIds.get(key) && a.userId === userId(nick))!.id;
  const titleOf = (key: string) => TOURNAMENTS.find((t) => t.key === key)!.title;

  // News.
  await newsFactory.insertMany(
    tx,
    NEWS.map((n) => ({
      title: n.title,
      content: n.content,
      imageUrl: n.imageUrl ?? null,
      link: n.link ?? null,
      archived: n.archived ?? false,
      date: past(n.day, 9),
      createdAt: past(n.day, 9),
      updatedAt: past(n.day, 9),
    })),
  );

  // Notifications.
  const applied = (key: string, nick: Nick, verdict: string, read: boolean, day: number) => ({
    userId: userId(nick),
    text: `Вашу заявку на турнір «${titleOf(key)}» ${verdict}`,
    read,
    date: past(day, 10),
    payload: { applicationId: applicationId(key, nick), tournamentId: tournamentIds.get(key)! },
  });
  await notificationFactory.insertMany(tx, [
    applied('cs2-awp-kings', 'KozakSniper', 'схвалено.', true, -6),
    applied('valorant-duel-sprint', 'KozakSniper', 'схвалено.', false, -2),
    applied('valorant-duel-sprint', 'Bandura_Beats', 'відхилено: нікнейм у грі не збігається з профілем.', false, -3),
    {
      userId: captainOf('Київські Кіборги'),
      text: `Заявку команди «Київські Кіборги» на турнір «${titleOf('cs2-kyiv-league')}» схвалено.`,
      read: false,
      date: past(-3, 11),
      payload: {
        applicationId: applicationId('cs2-kyiv-league', TEAMS[0]!.members[0]!),
        tournamentId: tournamentIds.get('cs2-kyiv-league')!,
      },
    },
    {
      userId: captainOf('Київські Кіборги'),
      text: `Вітаємо! Команда «Київські Кіборги» перемогла у турнірі «${titleOf('cs2-dnipro-cup')}».`,
      read: true,
      date: past(-55, 20),
      payload: { tournamentId: tournamentIds.get('cs2-dnipro-cup')! },
    },
    {
      userId: userId(INVITE.player),
      text: `Капітан команди «${INVITE.team}» запрошує вас приєднатися до команди.`,
      read: false,
      date: past(-2),
      actions: [
        { label: 'Прийняти', type: 'accept' as const },
        { label: 'Відхилити', type: 'reject' as const },
      ],
      actionType: 'acceptTeamInvite' as const,
      payload: { teamId: teamId(INVITE.team) },
    },
  ]);

  // Statistics, brackets, recorded matches, ratings and achievements.
  await playDemo(tx, {
    now,
    statsGames: STATS_GAMES.map((slug) => ({ name: GAMES.find((g) => g.slug === slug)!.name, template: slug })),
    tournaments: TOURNAMENTS.map((t) => {
      const participant = (name: Nick | TeamName) => (t.solo ? userId(name as Nick) : teamId(name as TeamName));
      return {
        id: tournamentIds.get(t.key)!,
        key: t.key,
        date: dateOf(t),
        status: t.status,
        soloOnly: Boolean(t.solo),
        gameId: gameId(t.game),
        champion: t.champion ? participant(t.champion) : undefined,
        declareWinner: t.status === 'finished' && !t.undeclared,
        league: t.league ?? false,
      };
    }),
  });

  // Match day (issue 57): a dispute, a report waiting and a call for the organisers' control room.
  const nickOfId = new Map([...userIds].map(([nick, id]) => [id, nick]));
  const teamOfId = new Map([...teamIds].map(([name, id]) => [id, name]));
  await playMatchDay(tx, {
    now,
    tournamentIds: ['cs2-awp-kings', 'dota-cossack-battle'].map((key) => tournamentIds.get(key)!),
    actorOf: (participant) => {
      const nick = nickOfId.get(participant);
      if (nick) return { userId: participant, name: nickOf.get(nick)! };
      const team = teamOfId.get(participant);
      return team ? { userId: captainOf(team), name: team } : undefined;
    },
  });

  // The map veto (issue 58): the AWP challenge vetoes its maps; the match whose report waits was vetoed first.
  await seedVeto(tx, tournamentIds.get('cs2-awp-kings')!, now);

  // The match room (issue 58): the Dota 2 ranked duels ask for a check-in to each match; tonight's match shows a room in use.
  await seedRoom(tx, {
    now,
    tournamentId: tournamentIds.get('dota-ranked-duels')!,
    actorOf: (participant) => {
      const nick = nickOfId.get(participant);
      if (nick) return { userId: participant, name: nickOf.get(nick)! };
      const team = teamOfId.get(participant);
      return team ? { userId: captainOf(team), name: team } : undefined;
    },
  });

  // Swiss with thresholds and GSL groups (issue 59): drawn and played by the organiser through the services.
  await seedFormats(tx, {
    swissId: tournamentIds.get('cs2-swiss-major')!,
    gslId: tournamentIds.get('dota-gsl-mid')!,
    ffaId: tournamentIds.get('pubgm-solo-cup')!,
  });

  // Organisations (issue 56) hosting some of the tournaments, with their people and followers.
  await seedOrganisations(tx, { userId: (nick) => userId(nick as Nick), tournamentId: (key) => tournamentIds.get(key)!, at: (days) => past(days) });

  // Integrations (issue 60): the Kyiv cyberleague's Discord channel and its delivery log.
  await seedIntegrations(tx, { tournamentId: (key) => tournamentIds.get(key)!, at: (days) => past(days) });
  await seedApiKeys(tx, { at: (days) => past(days) });
  // Telegram (issue 60): one demo player linked his chat, shown when the site has a bot.
  await seedTelegram(tx, { userId: (nick) => userId(nick as Nick), at: (days) => past(days) });
  await seedLinkedAccounts(tx, { userId: (nick) => userId(nick as Nick), at: (days) => past(days) });

  // Seasons (issue 59): the school's league adds up its finished cups into one table.
  await seedSeasons(tx, { userId: (nick) => userId(nick as Nick), tournamentId: (key) => tournamentIds.get(key)!, at: (days) => past(days) });

  // Venue networks (issue 57): one approved for tonight's club cup, one waiting for the admin.
  await seedVenues(tx, { userId: (nick) => userId(nick as Nick), tournamentId: (key) => tournamentIds.get(key)!, at: (days) => past(days) });
}

// ---------------------------------------------------------------- helpers

function lookup<T>(rows: T[], key: string, keyOf: (row: T) => string): T {
  const row = rows.find((r) => keyOf(r) === key);
  if (!row) throw new Error(`demo seed: no row for ${key}`);
  return row;
}

/** Usernames already in use or looked like (their `nameKeys`), so a real account is never collided with. */
async function takenNames(tx: Tx): Promise<Set<string>> {
  const skeletons = PLAYERS.map((p) => nameSkeletons(p));
  const rows = await tx
    .select({ username: users.username })
    .from(users)
    .where(
      or(
        inArray(
          sql`lower(${users.username})`,
          PLAYERS.map((p) => p.toLowerCase()),
        ),
        inArray(
          users.nameSkeleton,
          skeletons.map((k) => k.lower),
        ),
        inArray(
          users.nameSkeletonUpper,
          skeletons.map((k) => k.upper),
        ),
      ),
    );
  return new Set(rows.flatMap((r) => nameKeys(r.username)));
}

async function takenTeamNames(tx: Tx): Promise<Set<string>> {
  const skeletons = TEAMS.map((t) => nameSkeletons(t.name));
  const rows = await tx
    .select({ name: teams.name })
    .from(teams)
    .where(
      or(
        inArray(
          sql`lower(${teams.name})`,
          TEAMS.map((t) => t.name.toLowerCase()),
        ),
        inArray(
          teams.nameSkeleton,
          skeletons.map((k) => k.lower),
        ),
        inArray(
          teams.nameSkeletonUpper,
          skeletons.map((k) => k.upper),
        ),
      ),
    );
  return new Set(rows.flatMap((r) => nameKeys(r.name)));
}

/** The name itself, or the first numbered variant nobody uses or looks like yet; the result is marked as used. */
function freeName(name: string, taken: Set<string>, variant: (name: string, attempt: number) => string): string {
  let candidate = name;
  for (let attempt = 0; nameKeys(candidate).some((key) => taken.has(key)); attempt++) candidate = variant(name, attempt);
  for (const key of nameKeys(candidate)) taken.add(key);
  return candidate;
}
