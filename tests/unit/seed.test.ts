import { describe, it, expect } from 'vitest';
import { checkInPhase } from '../../src/lib/domain/registration.ts';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { champion, findProblem, progress } from '../../src/lib/domain/bracket.ts';
import { RANKS } from '../../src/lib/domain/rank.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import {
  applications,
  auditLog,
  endpointDeliveries,
  organisationApiKeys,
  games,
  matchActions,
  matches,
  matchParticipants,
  matchVetoMoves,
  news,
  notifications,
  organisationEndpoints,
  playerGameStats,
  stageMatches,
  stages,
  teamInvites,
  teamMembers,
  teams,
  tournaments,
  users,
} from '../../src/server/db/schema/index.ts';
import { DEMO_PASSWORD, seedDemo } from '../../src/server/db/seed.ts';
import { ensureAdmin } from '../../src/server/bootstrap.ts';
import { checkPassword, findByLogin } from '../../src/server/services/accounts/accounts.ts';
import { approvedParticipants } from '../../src/server/services/match-day/participants.ts';
import { stagesState } from '../../src/server/services/competition/stages/views.ts';
import { listStatsGames, playerLeaderboard, teamLeaderboard } from '../../src/server/services/statistics/leaderboards.ts';
import { matchHistory } from '../../src/server/services/statistics/match-history.ts';
import { listOrganisations, readOrganisation } from '../../src/server/services/organisations/organisations.ts';
import { listSeasons } from '../../src/server/services/seasons/seasons.ts';
import { seasonStandings } from '../../src/server/services/seasons/standings.ts';
import { approvedVenueNetworks } from '../../src/server/services/venues/approved-networks.ts';
import { venueNetworksToDecide } from '../../src/server/services/venues/venue-networks.ts';
import type { Database } from '../../src/server/db/client.ts';

const TABLES = { games, users, teams, teamMembers, teamInvites, tournaments, applications, news, notifications };

async function counts(db: Database) {
  const result: Record<string, number> = {};
  for (const [name, table] of Object.entries(TABLES)) {
    const [row] = await db.select({ n: count() }).from(table);
    result[name] = row?.n ?? 0;
  }
  return result;
}

describe('seedDemo', () => {
  it('fills an empty database once, with consistent demo content', { timeout: 20_000 }, async () => {
    const handle = await openDatabase({});
    try {
      await handle.migrate();
      const { db } = handle;
      // As the server starts: its admin first (the demo's organiser), then the demo.
      await ensureAdmin(db, 'admin@kiberarena.test', 'demo-admin-password');

      const started = performance.now();
      expect(await seedDemo(db)).toBe(true);
      const elapsed = performance.now() - started;
      expect(elapsed).toBeLessThan(5000);

      const before = await counts(db);
      expect(await seedDemo(db)).toBe(false);
      expect(await counts(db)).toEqual(before);

      // Games.
      const gameRows = await db.select().from(games);
      expect(gameRows).toHaveLength(5);
      expect(gameRows.map((g) => g.image).sort()).toEqual(['/games/cs2.jpg', '/games/dota2.jpg', '/games/lol.jpg', '/games/pubgm.jpg', '/games/valorant.jpg']);

      // Tournaments: every status, solo and team ones, images of their games.
      const tournamentRows = await db.select().from(tournaments);
      expect(new Set(tournamentRows.map((t) => t.status))).toEqual(new Set(['pending', 'started', 'finished']));
      expect(tournamentRows.some((t) => t.soloOnly)).toBe(true);
      expect(tournamentRows.some((t) => !t.soloOnly)).toBe(true);
      const gameImage = new Map(gameRows.map((g) => [g.id, g.image]));
      for (const t of tournamentRows) expect(t.image).toBe(gameImage.get(t.gameId));

      // Teams of 5–7 members, captain among them.
      const teamRows = await db.select().from(teams);
      expect(teamRows.length).toBeGreaterThanOrEqual(10);
      const memberRows = await db.select().from(teamMembers);
      for (const team of teamRows) {
        const members = memberRows.filter((m) => m.teamId === team.id).map((m) => m.userId);
        expect(members.length).toBeGreaterThanOrEqual(5);
        expect(members.length).toBeLessThanOrEqual(7);
        expect(members).toContain(team.captainId);
      }
      expect(await db.select().from(teamInvites)).toHaveLength(1);

      // Applications match their tournament's kind; team ones come from the captain.
      const captainOf = new Map(teamRows.map((t) => [t.id, t.captainId]));
      const soloOf = new Map(tournamentRows.map((t) => [t.id, t.soloOnly]));
      const applicationRows = await db.select().from(applications);
      for (const a of applicationRows) {
        if (a.teamId) {
          expect(soloOf.get(a.tournamentId)).toBe(false);
          expect(a.userId).toBe(captainOf.get(a.teamId));
        } else {
          expect(soloOf.get(a.tournamentId)).toBe(true);
        }
      }
      expect(new Set(applicationRows.map((a) => a.status))).toEqual(new Set(['pending', 'approved', 'rejected', 'waitlisted']));

      // Match day (issue 22): a capped tournament with check-in open now, full, with a waitlist; only
      // approved participants have checked in.
      const now = Date.now();
      const checkIn = tournamentRows.filter((t) => t.checkInEnabled);
      expect(checkIn).toHaveLength(1);
      const [evening] = checkIn;
      expect(checkInPhase(evening!, new Date(now))).toBe('open');
      const entries = applicationRows.filter((a) => a.tournamentId === evening!.id);
      expect(entries.filter((a) => a.status === 'approved' || a.status === 'pending')).toHaveLength(evening!.maxParticipants!);
      expect(entries.filter((a) => a.status === 'waitlisted').length).toBeGreaterThan(0);
      const checked = entries.filter((a) => a.checkedInAt);
      expect(checked.length).toBeGreaterThan(0);
      for (const a of checked) expect(a.status).toBe('approved');

      // Some upcoming tournaments already have at least four participants.
      const approvedIn = (id: string) => applicationRows.filter((a) => a.tournamentId === id && a.status === 'approved').length;
      expect(tournamentRows.filter((t) => t.status === 'pending' && approvedIn(t.id) >= 4).length).toBeGreaterThanOrEqual(2);

      // Pending tournaments wait for the admin to draw: approved applications, no bracket yet.
      for (const t of tournamentRows.filter((row) => row.status === 'pending')) {
        expect(t.bracket, t.title).toEqual([]);
        expect(approvedIn(t.id), t.title).toBeGreaterThan(0);
      }
      // Started and finished ones have a bracket the bracket engine accepts, drawn from their approved participants
      // (those of the formats of circuits, issue 59, play stages of other formats and are looked at below).
      const circuitFormats = ['Aim Major з CS2: швейцарський етап', 'Мід-дуелі Dota 2: групи GSL', 'PUBG Mobile: соло-кубок Ерангеля'];
      for (const t of tournamentRows.filter((row) => row.status !== 'pending' && !circuitFormats.includes(row.title))) {
        const allowed = (await approvedParticipants(db, t)).map((p) => p._id);
        expect(findProblem(t.bracket, allowed), t.title).toBeNull();
        // The bracket is the view of its single-elimination stage, whose played matches are the recorded history.
        const state = await stagesState(db, t.id);
        expect(
          state!.stages.map((stage) => stage.format),
          t.title,
        ).toEqual(['single_elimination']);
        const stageMatchesOf = state!.stages[0]!.matches;
        const winners = t.bracket.flatMap((round) => round.matches.map((m) => m.winner));
        expect(
          stageMatchesOf.filter((m) => m.side === 'winners').map((m) => m.winner),
          t.title,
        ).toEqual(winners);
        if (t.statsEnabled) {
          const linked = await db.select({ id: matches.stageMatchId }).from(matches).where(eq(matches.tournamentId, t.id));
          const played = stageMatchesOf.filter((m) => m.status === 'completed' && !m.bye).map((m) => m._id);
          expect(
            linked
              .map((r) => r.id)
              .filter((id) => id !== null)
              .sort(),
            t.title,
          ).toEqual(played.sort());
        }
        // Its history of changes (issue 23): the stage drawn, then each played result, as an organiser enters them.
        const history = await db.select().from(auditLog).where(eq(auditLog.tournamentId, t.id));
        expect(
          history.filter((row) => row.kind === 'stageCreated'),
          t.title,
        ).toHaveLength(1);
        const results = history.filter((row) => row.kind === 'resultEntered');
        expect(results.map((row) => row.matchId).sort(), t.title).toEqual(
          stageMatchesOf
            .filter((m) => m.status === 'completed' && !m.bye)
            .map((m) => m._id)
            .sort(),
        );
        for (const row of results) {
          const match = stageMatchesOf.find((m) => m._id === row.matchId)!;
          expect(row.after, t.title).toMatchObject({ result: { scoreA: match.scoreA, scoreB: match.scoreB, winner: match.winner === match.a ? 'a' : 'b' } });
        }
        const { completed, total } = progress(t.bracket);
        if (t.status === 'finished') {
          expect(completed, t.title).toBe(total);
          expect(champion(t.bracket), t.title).not.toBeNull();
          // A declared winner is the bracket's champion.
          if (t.winnerId) expect(t.winnerId, t.title).toBe(champion(t.bracket));
        } else {
          // Started: about half played, the final still open.
          expect(completed / total, t.title).toBeGreaterThanOrEqual(0.5);
          expect(champion(t.bracket), t.title).toBeNull();
        }
      }
      expect(tournamentRows.filter((row) => row.status === 'finished' && row.winnerId).length).toBeGreaterThanOrEqual(2);

      // One played final carries its organisers' own note (issue 57): stored, and in no public read.
      const notes = await db
        .select({ match: stageMatches, tournamentId: stages.tournamentId })
        .from(stageMatches)
        .innerJoin(stages, eq(stages.id, stageMatches.stageId))
        .where(eq(stageMatches.commentPublic, false));
      expect(notes).toHaveLength(1);
      const [note] = notes;
      expect(note!.match.status).toBe('completed');
      expect(note!.match.comment.length).toBeGreaterThan(0);
      const notedIn = tournamentRows.find((row) => row.id === note!.tournamentId)!;
      expect(notedIn.status).toBe('finished');
      expect(JSON.stringify(await stagesState(db, notedIn.id))).not.toContain(note!.match.comment);
      expect(JSON.stringify(notedIn.bracket)).not.toContain(note!.match.comment);

      // Winners are approved participants of finished tournaments.
      const withWinner = tournamentRows.filter((t) => t.winnerId);
      expect(withWinner.length).toBeGreaterThanOrEqual(1);
      for (const t of withWinner) {
        expect(t.status).toBe('finished');
        const approved = applicationRows.filter((a) => a.tournamentId === t.id && a.status === 'approved');
        const ids = t.winnerType === 'team' ? approved.map((a) => a.teamId) : approved.map((a) => a.userId);
        expect(ids).toContain(t.winnerId);
      }

      // News and notifications.
      const newsRows = await db.select().from(news);
      expect(newsRows).toHaveLength(6);
      expect(newsRows.filter((n) => n.archived)).toHaveLength(1);
      expect(newsRows.some((n) => n.link?.startsWith('https://'))).toBe(true);
      expect(newsRows.some((n) => n.imageUrl?.startsWith('/news/'))).toBe(true);
      expect((await db.select().from(notifications)).length).toBeGreaterThan(0);

      // Statistics: at least two games, and a finished tournament whose matches were recorded.
      const statsGames = await listStatsGames(db);
      expect(statsGames.length).toBeGreaterThanOrEqual(2);
      const recorded = await db.select({ tournamentId: matches.tournamentId }).from(matches);
      const recordedIn = new Set(recorded.map((m) => m.tournamentId));
      expect(tournamentRows.some((row) => row.status === 'finished' && row.winnerId && row.statsEnabled && recordedIn.has(row.id))).toBe(true);

      // Leaderboards, as the page asks for them: a game whose both tabs have 10+ rows with every
      // rank title, streaks of both signs and achievements.
      const titles = RANKS.map((rank) => t(`stats.rank.${rank.id}`));
      const showcase = [];
      for (const game of statsGames) {
        const query = { limit: 50, sort: 'rating_desc' } as const;
        const tabs = [await playerLeaderboard(db, game._id, query), await teamLeaderboard(db, game._id, query)];
        const full = tabs.every(
          (rows) =>
            rows.length >= 10 &&
            titles.every((title) => rows.some((r) => r.generalStats.rankTitle === title)) &&
            rows.some((r) => r.generalStats.currentStreak > 0) &&
            rows.some((r) => r.generalStats.currentStreak < 0) &&
            rows.some((r) => r.achievements.length > 0),
        );
        if (full) showcase.push(game.name);
      }
      expect(showcase.length).toBeGreaterThanOrEqual(1);
      // Every statistics row adds up its recorded matches.
      for (const row of await db.select().from(playerGameStats)) {
        const played = await db
          .select({ isWinner: matchParticipants.isWinner })
          .from(matchParticipants)
          .innerJoin(matches, eq(matches.id, matchParticipants.matchId))
          .where(and(eq(matchParticipants.userId, row.userId), eq(matches.gameId, row.gameId)));
        expect([row.matchesPlayed, row.matchesWon]).toEqual([played.length, played.filter((p) => p.isWinner).length]);
        // Each history row keeps the rating after its match (issue 23, the profile's chart): the last one is the row's rating.
        const [last] = await db
          .select({ rating: matchParticipants.ratingAfter })
          .from(matchParticipants)
          .innerJoin(matches, eq(matches.id, matchParticipants.matchId))
          .where(and(eq(matchParticipants.userId, row.userId), eq(matches.gameId, row.gameId)))
          .orderBy(desc(sql`coalesce(${matches.completedAt}, ${matches.createdAt})`), desc(matches.createdAt), desc(matches.id))
          .limit(1);
        expect(last?.rating).toBeCloseTo(row.rating, 1);
      }
      expect(await db.select({ n: count() }).from(matchParticipants).where(isNull(matchParticipants.ratingAfter))).toEqual([{ n: 0 }]);

      // Match histories of demo players and teams.
      const kozak = await findByLogin(db, 'KozakSniper');
      expect((await matchHistory(db, { kind: 'player', id: kozak!.id }, { limit: 10, offset: 0 })).length).toBeGreaterThan(0);
      const [kyivTeam] = await db.select().from(teams).where(eq(teams.name, 'Київські Кіборги'));
      expect((await matchHistory(db, { kind: 'team', id: kyivTeam!.id }, { limit: 10, offset: 0 })).length).toBeGreaterThan(0);

      // Organisations (issue 56): three, one verified, each with an owner, followers and tournaments in every state.
      const hosts = await listOrganisations(db, { limit: 10, offset: 0 });
      expect(hosts.items.map((o) => [o.slug, o.verified])).toEqual([
        ['kyiv-cyberleague', true],
        ['kiberklub-lviv', false],
        ['odesa-esports-school', false],
      ]);
      for (const host of hosts.items) {
        expect(host.followers).toBeGreaterThan(0);
        const hosted = await db.select({ status: tournaments.status }).from(tournaments).where(eq(tournaments.organisationId, host._id));
        expect(new Set(hosted.map((row) => row.status)), host.slug).toEqual(new Set(['pending', 'started', 'finished']));
        const page = await readOrganisation(db, host.slug, null);
        expect(page?.members.filter((m) => m.role === 'owner')).toHaveLength(1);
      }
      // Seasons (issue 59): the school's league counts its two finished cups; its next one waits to count.
      const leagues = await listSeasons(db, { limit: 10, offset: 0 });
      expect(leagues.items.map((s) => [s.organisation?.slug, s.tournaments, s.finished])).toEqual([['odesa-esports-school', 3, 2]]);
      const league = await seasonStandings(db, leagues.items[0]!._id, null);
      expect(league!.tournaments.map((each) => each.counted)).toEqual([true, true, false]);
      expect(league!.rows.length).toBeGreaterThanOrEqual(5);
      expect(league!.rows[0]!.total).toBeGreaterThan(league!.rows.at(-1)!.total);
      // The club's weekly cup, a clone of last week's, plans the stage that one was played in.
      const [weekly] = await db.select().from(tournaments).where(eq(tournaments.title, 'Кубок Карпат з Valorant'));
      expect(weekly!.status).toBe('pending');
      expect(weekly!.stagePlan).toEqual([{ name: '', format: 'single_elimination', seeding: 'order', settings: {} }]);
      expect(tournamentRows.filter((row) => row.stagePlan.length > 0)).toHaveLength(1);
      // The site keeps tournaments of its own.
      expect(tournamentRows.some((row) => row.organisationId === null)).toBe(true);
      // The map veto (issue 58): CS2 and Valorant have their pools; the AWP challenge's match whose report waits was vetoed first.
      const pools = await db.select({ name: games.name, maps: games.maps }).from(games);
      expect(pools.filter((g) => g.maps.length > 0).map((g) => g.name).sort()).toEqual(['CS2', 'Valorant']);
      const vetoed = await db.select().from(matchVetoMoves).orderBy(matchVetoMoves.number);
      expect(new Set(vetoed.map((m) => m.matchId)).size).toBe(1);
      const [vetoedMatch] = await db.select().from(stageMatches).where(eq(stageMatches.id, vetoed[0]!.matchId));
      expect(vetoedMatch!.reportState).toBe('reported');
      // Bo1 on seven maps: the role, six bans, the decider and its side.
      expect(vetoed.map((m) => m.action)).toEqual(['roles', 'ban', 'ban', 'ban', 'ban', 'ban', 'ban', 'decider', 'side']);
      // One is shown on its own clock (issue 57): Warsaw's; the rest in each reader's zone.
      expect(tournamentRows.filter((row) => row.timeZone !== null).map((row) => [row.title, row.timeZone])).toEqual([['Valorant Duel Cup: вечірній спринт', 'Europe/Warsaw']]);
      // The formats of circuits (issue 59): a Swiss with thresholds in its fourth round, GSL groups waiting for a decider.
      const [major] = await db.select().from(tournaments).where(eq(tournaments.title, 'Aim Major з CS2: швейцарський етап'));
      const majorStages = (await stagesState(db, major!.id))!.stages;
      expect(majorStages.map((s) => [s.format, s.settings.winsToAdvance, s.settings.lossesToEliminate])).toEqual([['swiss', 3, 3]]);
      const table = majorStages[0]!.groups[0]!.standings;
      // Two went 3–0; two of round 4's 2–1 matches are played, their winners through at 3–1.
      expect(table.filter((r) => r.outcome === 'advanced').map((r) => [r.wins, r.losses])).toEqual([
        [3, 0],
        [3, 0],
        [3, 1],
        [3, 1],
      ]);
      expect(table.filter((r) => r.outcome === 'eliminated')).toHaveLength(2);
      expect(majorStages[0]!.matches.filter((m) => m.round === 4).map((m) => m.status)).toEqual(['completed', 'completed', 'ready', 'ready', 'ready', 'ready']);
      expect(majorStages[0]!.matches.filter((m) => m.round === 4).every((m) => m.bestOf === 3)).toBe(true);
      const [mid] = await db.select().from(tournaments).where(eq(tournaments.title, 'Мід-дуелі Dota 2: групи GSL'));
      const gsl = (await stagesState(db, mid!.id))!.stages[0]!;
      expect(gsl.format).toBe('gsl');
      expect(gsl.matches.filter((m) => m.status !== 'completed').map((m) => [m.group, m.round, m.status])).toEqual([[2, 3, 'ready']]);
      const [pubg] = await db.select().from(tournaments).where(eq(tournaments.title, 'PUBG Mobile: соло-кубок Ерангеля'));
      const lobbies = (await stagesState(db, pubg!.id))!.stages[0]!.lobbies;
      expect(lobbies.map((l) => [l.round, l.members.length, l.games.length, l.complete])).toEqual([
        [1, 8, 3, true],
        [1, 8, 3, true],
        [2, 8, 1, false],
      ]);
      // Its two finished lobbies count in PUBG Mobile's ratings by placement (decision 039): one record each, a side a member.
      const lobbyRecords = await db
        .select({ lobbyId: matches.lobbyId, sides: count(matchParticipants.id) })
        .from(matches)
        .innerJoin(matchParticipants, eq(matchParticipants.matchId, matches.id))
        .where(eq(matches.tournamentId, pubg!.id))
        .groupBy(matches.lobbyId);
      expect(lobbyRecords.map((r) => r.sides)).toEqual([8, 8]);
      expect(new Set(lobbyRecords.map((r) => r.lobbyId))).toEqual(new Set(lobbies.filter((l) => l.complete).map((l) => l._id)));
      expect(await playerLeaderboard(db, pubg!.gameId, { limit: 50, sort: 'rating_desc' })).toHaveLength(16);
      // Integrations (issue 60): the Kyiv cyberleague's Discord channel and outgoing webhook, each with a log of what was posted and what failed.
      const endpoints = await db.select().from(organisationEndpoints);
      const discord = endpoints.filter((e) => e.kind === 'discord');
      expect(discord.map((e) => [e.kind, e.brokenAt])).toEqual([['discord', null]]);
      const log = await db.select().from(endpointDeliveries).where(eq(endpointDeliveries.endpointId, discord[0]!.id));
      expect(log.map((d) => d.state).sort()).toEqual(['failed', 'sent', 'sent', 'sent']);
      const webhooks = endpoints.filter((e) => e.kind === 'webhook');
      expect(webhooks.map((e) => [e.url, e.events, e.secret?.startsWith('whsec_')])).toEqual([
        ['https://scoreboard.kyiv-cyberleague.example/kiberarena/hooks', ['tournament.created', 'match.completed', 'tournament.finished'], true],
      ]);
      const hookLog = await db.select().from(endpointDeliveries).where(eq(endpointDeliveries.endpointId, webhooks[0]!.id));
      expect(hookLog.map((d) => d.state).sort()).toEqual(['failed', 'sent', 'sent']);
      // Its site reads the API with a key (decision 045): only the key's digest is kept.
      const keys = await db.select().from(organisationApiKeys);
      expect(keys.map((k) => [k.name, k.scope, k.revokedAt, /^[0-9a-f]{64}$/.test(k.hash), k.prefix.startsWith('ka_')])).toEqual([['Таблиця на сайті ліги', 'read', null, true, true]]);
      // Venue networks (issue 57): one waiting for the admin, one approved and working for tonight's club cup.
      const venues = await venueNetworksToDecide(db);
      expect(venues.map((v) => [v.tournament.title, v.status, v.inEffect])).toEqual([
        ['Кубок Карпат з Valorant', 'pending', false],
        ['Вечірній кубок LoL: підтвердіть участь', 'approved', true],
      ]);
      const hall = approvedVenueNetworks(db);
      await hall.reload();
      expect([hall.has('192.168.50.23'), hall.has('198.51.100.25')]).toEqual([true, false]);

      // Issue 57: every played match has its score and time; match day needs the organisers — a
      // dispute of two different reports, a report waiting, a call (the site's admin, made before the seed, hears of them).
      const playedMatches = await db.select().from(stageMatches).where(and(eq(stageMatches.status, 'completed'), sql`${stageMatches.participantB} is not null`));
      expect(playedMatches.length).toBeGreaterThan(10);
      expect(playedMatches.filter((m) => m.scoreA === null || m.scoreB === null || m.completedAt === null)).toEqual([]);
      const [disputed] = await db.select().from(stageMatches).where(eq(stageMatches.reportState, 'disputed'));
      const disputeStory = await db.select().from(matchActions).where(eq(matchActions.matchId, disputed!.id));
      expect(disputeStory.map((a) => [a.kind, a.side])).toEqual(expect.arrayContaining([['report', 'a'], ['report', 'b'], ['dispute', 'b']]));
      expect(await db.select().from(stageMatches).where(eq(stageMatches.reportState, 'reported'))).toHaveLength(1);
      expect(await db.select().from(stageMatches).where(sql`${stageMatches.calledAt} is not null`)).toHaveLength(1);

      // The demo captain has unread news in the bell.
      const captainRow = await findByLogin(db, 'Kyiv_Cyborg');
      const [unread] = await db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, captainRow!.id), eq(notifications.read, false)));
      expect(unread?.n).toBeGreaterThan(0);

      // Demo players sign in with the documented password.
      const player = await findByLogin(db, 'KozakSniper');
      expect(player?.emailConfirmedAt).not.toBeNull();
      expect(await checkPassword(player, DEMO_PASSWORD)).toBe(true);
      const captain = await findByLogin(db, 'kyiv_cyborg@demo.kiberarena.local');
      expect(await checkPassword(captain, DEMO_PASSWORD)).toBe(true);
      const [{ n: players } = { n: 0 }] = await db.select({ n: count() }).from(users).where(eq(users.role, 'user'));
      expect(players).toBeGreaterThanOrEqual(20);
    } finally {
      await handle.close();
    }
  });
});
