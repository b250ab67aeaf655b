import { randomUUID } from 'node:crypto';
import { eq, getTableColumns, getTableName, inArray, sql } from 'drizzle-orm';
import { champion, createBracket, progress, setResult, type Bracket } from '../../../lib/domain/bracket.ts';
import { winnerSide } from '../../../lib/domain/match-result.ts';
import { fromBracket } from '../../../lib/domain/stage/legacy.ts';
import { singleEliminationPlan } from '../../../lib/domain/stage/plan.ts';
import { resolveStage } from '../../../lib/domain/stage/resolve.ts';
import type { TournamentStatus } from '../../../lib/domain/tournament-status.ts';
import { RANKS, rankOf } from '../../../lib/domain/rank.ts';
import { INITIAL_RATING } from '../../../lib/domain/rating.ts';
import type { StatsTemplate } from '../../../lib/domain/stat-fields.ts';
import { approvedParticipants } from '../../services/match-day/participants.ts';
import { getStatsConfig, setupGame, type StatsConfig } from '../../services/competition/game-management.ts';
import {
  achievementNotices,
  compiledAchievements,
  conditionValues,
  enableStats,
  matchDetails,
  participantRow,
  standingsAfter,
  type StandingNumbers,
} from '../../services/statistics/tournament-stats.ts';
import type { Tx } from '../client.ts';
import { notificationFactory, stageFactory, stageMatchFactory, stageRoundFactory } from '../factories/index.ts';
import {
  auditLog,
  earnedAchievements,
  matches,
  matchParticipants,
  notifications,
  playerGameStats,
  stageMatches,
  stageRounds,
  stages,
  teamGameStats,
  teamMembers,
  tournaments,
  users,
} from '../schema/index.ts';
import type { ParticipantType } from '../../../lib/domain/participant.ts';
import type { MatchSnapshot, StageSnapshot } from '../../../lib/domain/audit.ts';

/*
 * The played part of the demo: statistics set up for some games, brackets drawn and played, and
 * the matches of those tournaments recorded with their statistics, as an admin would have done
 * over the last two months. Every rule comes from the code that applies it when an admin acts:
 * brackets from the bracket engine (createBracket, setResult, champion), ratings, streaks, totals
 * and match details from the recording service (standingsAfter, matchDetails), achievements from
 * the games' templates and their compiled conditions, notices from achievementNotices. Only the
 * writing is batched: recording a match through the service costs ~20 queries, and a Legend
 * (rating 2000) takes well over a thousand Elo matches to exist at all.
 */

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/**
 * The organisers' note on the final of the first finished tournament (issue 57): a comment only
 * they see, as the result form saves it with «Коментар бачать усі» unchecked. The SPEC bracket,
 * the match page and every other public read show it as none.
 */
const ORGANISERS_NOTE = 'Капітан переможців отримав попередження за образи в чаті лобі; повторне порушення — дискваліфікація.';

export interface PlayedTournament {
  id: string;
  key: string;
  date: Date;
  status: TournamentStatus;
  soloOnly: boolean;
  gameId: string;
  /** The participant (user or team id) who wins the bracket; otherwise the higher-rated side wins each match. */
  champion?: string | undefined;
  /** Whether the champion is declared the tournament's winner (finished tournaments). */
  declareWinner?: boolean;
  /** A season league: besides its bracket, a long run of recorded matches between its participants. */
  league?: boolean;
}

export interface DemoPlay {
  now: Date;
  /** Games that get statistics, with the template an admin would choose. */
  statsGames: { name: string; template: StatsTemplate }[];
  tournaments: PlayedTournament[];
}

interface Side {
  type: ParticipantType;
  id: string;
  name: string;
}

type Standing = StandingNumbers & { updatedAt: Date };

/** A small deterministic random source (mulberry32), so every seeded database holds the same story. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Per-match numbers for a game's template fields: a winner's are better. Teams add up five players. */
const STAT_RANGES: Record<string, Record<string, [number, number]>> = {
  dota2: {
    kills: [2, 16],
    deaths: [1, 12],
    assists: [4, 22],
    lastHits: [60, 360],
    denies: [2, 16],
    gpm: [360, 620],
    xpm: [420, 700],
    heroDamage: [6000, 36000],
    towerDamage: [300, 6000],
    heroHealing: [0, 1400],
  },
  valorant: {
    kills: [6, 26],
    deaths: [6, 22],
    assists: [1, 12],
    firstBloods: [0, 6],
    acs: [120, 300],
    headshots: [2, 16],
    spikePlants: [0, 5],
    spikeDefuses: [0, 3],
    clutches: [0, 3],
    econRating: [40, 90],
  },
};
/** Averages per player, not counts: a team's value is not multiplied. */
const PER_PLAYER = new Set(['gpm', 'xpm', 'acs', 'econRating']);

export async function playDemo(tx: Tx, plan: DemoPlay): Promise<void> {
  const { now } = plan;
  const rand = random(20_240_601);
  const between = (low: number, high: number) => Math.round(low + rand() * (high - low));

  // Statistics for the chosen games, as «Налаштувати» with a template does it.
  const configs = new Map<
    string,
    {
      config: StatsConfig;
      template: StatsTemplate;
      main: Set<string>;
      compiled: ReturnType<typeof compiledAchievements>;
    }
  >();
  for (const { name, template } of plan.statsGames) {
    const outcome = await setupGame(tx, { name, template });
    if (!outcome.ok) throw new Error(`demo seed: ${name} already has statistics`);
    const config = (await getStatsConfig(tx, outcome.game._id))!;
    const main = new Set(config.statsFields.filter((f) => f.isMainStat).map((f) => f.fieldName));
    configs.set(outcome.game._id, {
      config,
      template,
      main,
      compiled: compiledAchievements(config),
    });
  }

  // Names of the sides, and the members who hear about a team's achievements.
  const names = new Map<string, string>();
  const played = plan.tournaments.filter((t) => t.status !== 'pending');
  const participantsOf = new Map<string, Side[]>();
  for (const t of played) {
    const participants = await approvedParticipants(tx, t);
    participantsOf.set(
      t.id,
      participants.map((p) => ({
        type: t.soloOnly ? 'user' : 'team',
        id: p._id,
        name: p.name,
      })),
    );
    for (const p of participants) names.set(p._id, p.name);
  }
  const teamIds = [...new Set(played.filter((t) => !t.soloOnly).flatMap((t) => participantsOf.get(t.id)!.map((s) => s.id)))];
  const members =
    teamIds.length > 0
      ? await tx.select({ teamId: teamMembers.teamId, userId: teamMembers.userId }).from(teamMembers).where(inArray(teamMembers.teamId, teamIds))
      : [];

  // ------------------------------------------------------------ the ledger of recorded matches
  const standings = new Map<string, Standing>();
  const keyOf = (side: Side, gameId: string) => `${side.type}:${side.id}:${gameId}`;
  const standing = (side: Side, gameId: string): Standing =>
    standings.get(keyOf(side, gameId)) ?? {
      rating: INITIAL_RATING,
      matchesPlayed: 0,
      matchesWon: 0,
      matchesLost: 0,
      currentStreak: 0,
      totals: {},
      updatedAt: now,
    };
  const held = new Set<string>();
  const matchRows: (typeof matches.$inferInsert)[] = [];
  const participantRows: (typeof matchParticipants.$inferInsert)[] = [];
  const earnedRows: (typeof earnedAchievements.$inferInsert)[] = [];
  const noticeRows: (typeof notifications.$inferInsert)[] = [];

  const statsFor = (game: { template: StatsTemplate; main: Set<string> }, side: Side, won: boolean, mainOnly: boolean): Record<string, number> => {
    const ranges = STAT_RANGES[game.template] ?? {};
    const result: Record<string, number> = {};
    for (const [name, [low, high]] of Object.entries(ranges)) {
      if (mainOnly && !game.main.has(name)) continue;
      // A winner's numbers come from the upper part of the range, a loser's from the lower.
      const span = high - low;
      const value = won ? between(low + span * 0.35, high) : between(low, high - span * 0.35);
      result[name] = side.type === 'team' && !PER_PLAYER.has(name) ? value * 5 : value;
    }
    return result;
  };

  /**
   * One recorded match, as POST /tournaments/{id}/record-match would store it at `at`: with every
   * stat field, or (a season's everyday matches) with the game's main stats only.
   */
  const record = (tournament: PlayedTournament, sides: [Side, Side], winner: 0 | 1, at: Date, mainOnly = false, stageMatchId: string | null = null) => {
    const game = configs.get(tournament.gameId);
    if (!game) return null;
    const scores = game.template === 'valorant' ? [13, between(4, 11)] : [2, between(0, 1)];
    const score: [number, number] = winner === 0 ? [scores[0]!, scores[1]!] : [scores[1]!, scores[0]!];
    if (winnerSide(score[0], score[1]) !== winner + 1) throw new Error('demo seed: a score disagrees with its winner');
    const stats: [Record<string, number>, Record<string, number>] = [
      statsFor(game, sides[0], winner === 0, mainOnly),
      statsFor(game, sides[1], winner === 1, mainOnly),
    ];
    const before: [Standing, Standing] = [standing(sides[0], tournament.gameId), standing(sides[1], tournament.gameId)];
    const after = standingsAfter(before, winner, stats);
    const matchId = randomUUID();
    matchRows.push({
      id: matchId,
      tournamentId: tournament.id,
      gameId: tournament.gameId,
      status: 'completed',
      isDraw: false,
      duration: game.template === 'valorant' ? between(32, 48) : between(28, 55),
      gameSpecificData: matchDetails(game.config.statsFields, sides, stats),
      completedAt: at,
      createdAt: at,
      stageMatchId,
    });
    sides.forEach((side, index) => {
      participantRows.push(
        participantRow(matchId, side, { score: score[index]!, isWinner: index === winner, stats: stats[index]!, ratingAfter: after[index]!.rating }),
      );
      standings.set(keyOf(side, tournament.gameId), {
        ...after[index]!,
        updatedAt: at,
      });
    });
    const fieldNames = game.config.statsFields.map((f) => f.fieldName);
    const won = sides.flatMap((side, index) => {
      const values = conditionValues(after[index]!, fieldNames);
      return game.compiled
        .filter(({ achievement, evaluate }) => !held.has(`${side.type}:${side.id}:${achievement._id}`) && evaluate(values))
        .map(({ achievement }) => ({ side, achievement }));
    });
    for (const { side, achievement } of won) {
      held.add(`${side.type}:${side.id}:${achievement._id}`);
      earnedRows.push({
        achievementId: achievement._id,
        userId: side.type === 'user' ? side.id : null,
        teamId: side.type === 'team' ? side.id : null,
        earnedAt: at,
      });
    }
    // Older news has been read; the last week's is still waiting in the bell.
    for (const notice of achievementNotices(won, members, tournament.id)) {
      noticeRows.push(
        notificationFactory.values({
          ...notice,
          // The demo's players read Ukrainian (the accounts' default).
          text: typeof notice.text === 'string' ? notice.text : notice.text('uk'),
          payload: notice.payload ?? {},
          date: at,
          read: now.getTime() - at.getTime() > 7 * DAY,
        }),
      );
    }
    return score;
  };

  const ratingOf = (tournament: PlayedTournament, side: Side) => standing(side, tournament.gameId).rating;
  /** Who wins a bracket match: the tournament's champion, otherwise the higher rating, otherwise the earlier applicant. */
  const pick = (tournament: PlayedTournament, a: Side, b: Side, order: Side[]): 0 | 1 => {
    if (tournament.champion === a.id) return 0;
    if (tournament.champion === b.id) return 1;
    const diff = ratingOf(tournament, a) - ratingOf(tournament, b);
    if (diff !== 0) return diff > 0 ? 0 : 1;
    return order.indexOf(a) <= order.indexOf(b) ? 0 : 1;
  };

  const fallbackScore = (winner: 0 | 1, lost: number): [number, number] => (winner === 0 ? [2, lost] : [lost, 2]);

  /** Each played bracket match's stage row id, score and time, so the stage and the history agree. */
  const stagePlay = new Map<string, { ids: string[][]; played: Map<string, { score: [number, number] | null; at: Date }> }>();

  /** Draws the bracket and plays it: all of it when finished, until about half is decided when started. */
  const playBracket = (tournament: PlayedTournament, from: Date, to: Date): Bracket => {
    const sides = participantsOf.get(tournament.id)!;
    let bracket = createBracket(sides.map((s) => s.id));
    const ids = bracket.map((round) => round.matches.map(() => randomUUID()));
    const playedAt = new Map<string, { score: [number, number] | null; at: Date }>();
    stagePlay.set(tournament.id, { ids, played: playedAt });
    const byId = new Map(sides.map((s) => [s.id, s]));
    const todo = bracket.flatMap((round, r) => round.matches.map((_, m) => ({ r, m })));
    const total = todo.length;
    let playedCount = 0;
    for (const { r, m } of todo) {
      if (tournament.status === 'started' && progress(bracket).percent >= 50) break;
      const match = bracket[r]!.matches[m]!;
      if (match.winner || !match.a || !match.b) continue;
      const a = byId.get(match.a)!;
      const b = byId.get(match.b)!;
      const winner = pick(tournament, a, b, sides);
      const at = new Date(from.getTime() + ((playedCount + 1) / (total + 1)) * (to.getTime() - from.getTime()));
      // A game without statistics records nothing, yet its played matches show a score too (two games to one or none, by turns).
      const score = record(tournament, [a, b], winner, at, false, ids[r]![m]!) ?? fallbackScore(winner, (r + m) % 2);
      playedAt.set(ids[r]![m]!, { score, at });
      bracket = setResult(bracket, r, m, winner === 0 ? a.id : b.id);
      playedCount++;
    }
    return bracket;
  };

  /**
   * A season of recorded matches between a league's participants, until its table holds every
   * rank title: each round pairs the strongest free side with the one closest to 100 points
   * below it, the stronger winning, so ratings spread from Новачок to Легенда; a few last rounds
   * go either way, so streaks end mixed.
   */
  const playSeason = (tournament: PlayedTournament, from: Date, to: Date) => {
    const sides = participantsOf.get(tournament.id)!;
    const pending: { sides: [Side, Side]; winner: 0 | 1 }[][] = [];
    // Ratings move as matches are recorded, so the season is played on a scratch copy first to
    // learn how many rounds it takes; the real recording below repeats the same pairings.
    const scratch = new Map<string, StandingNumbers>(sides.map((s) => [s.id, { ...standing(s, tournament.gameId) }]));
    const rate = (s: Side) => scratch.get(s.id)!.rating;
    const strength = new Map(sides.map((s, i) => [s.id, sides.length - i]));
    const done = () => {
      const titles = new Set(sides.map((s) => rankOf(rate(s))));
      return RANKS.every((r) => titles.has(r.id));
    };
    const playRound = (mixed: boolean) => {
      const order = [...sides].sort((x, y) => rate(y) - rate(x));
      const free = new Set(order.map((s) => s.id));
      const round: { sides: [Side, Side]; winner: 0 | 1 }[] = [];
      for (const first of order) {
        if (!free.has(first.id)) continue;
        free.delete(first.id);
        const candidates = order.filter((s) => free.has(s.id));
        if (candidates.length === 0) break;
        const second = mixed
          ? candidates[0]!
          : candidates.reduce((best, s) => (Math.abs(rate(first) - rate(s) - 100) < Math.abs(rate(first) - rate(best) - 100) ? s : best));
        free.delete(second.id);
        const stronger: 0 | 1 = strength.get(first.id)! >= strength.get(second.id)! ? 0 : 1;
        // The leader keeps winning, so the last rounds never take the Legend's title away.
        const upset = mixed && first !== order[0] && rand() < 0.5;
        const winner: 0 | 1 = upset ? (stronger === 0 ? 1 : 0) : stronger;
        const pair: [Side, Side] = [first, second];
        const [w, l] = winner === 0 ? [pair[0], pair[1]] : [pair[1], pair[0]];
        const [nw, nl] = standingsAfter([scratch.get(w.id)!, scratch.get(l.id)!], 0, [{}, {}]);
        scratch.set(w.id, nw);
        scratch.set(l.id, nl);
        round.push({ sides: pair, winner });
      }
      pending.push(round);
    };
    while (!done() && pending.length < 2000) playRound(false);
    for (let i = 0; i < 3; i++) playRound(true);
    const step = (to.getTime() - from.getTime()) / (pending.length + 1);
    pending.forEach((round, i) => {
      round.forEach(({ sides: pair, winner }, k) => record(tournament, pair, winner, new Date(from.getTime() + (i + 1) * step + k * 60_000), true));
    });
  };

  // ------------------------------------------------------------ the story, oldest first
  const chronological = [...played].sort((a, b) => a.date.getTime() - b.date.getTime());
  const brackets = new Map<string, Bracket>();
  // Leagues play their season first and their play-off over the last three days.
  for (const tournament of chronological) {
    if (configs.has(tournament.gameId)) await enableStats(tx, tournament.id);
    const start = tournament.date.getTime();
    if (tournament.league) {
      playSeason(tournament, tournament.date, new Date(now.getTime() - 4 * DAY));
      continue;
    }
    const end = tournament.status === 'finished' ? start + 6 * HOUR : Math.max(start + HOUR, Math.min(start + 2 * DAY, now.getTime() - 10 * 60_000));
    brackets.set(tournament.id, playBracket(tournament, tournament.date, new Date(Math.min(end, now.getTime() - 5 * 60_000))));
  }
  for (const tournament of chronological.filter((t) => t.league)) {
    brackets.set(tournament.id, playBracket(tournament, new Date(now.getTime() - 3 * DAY), new Date(now.getTime() - 2 * HOUR)));
  }

  // ------------------------------------------------------------ writing it all
  for (const tournament of played) {
    const bracket = brackets.get(tournament.id)!;
    const winnerId = champion(bracket);
    await tx
      .update(tournaments)
      .set({
        bracket,
        bracketVersion: 1 + bracket.flatMap((r) => r.matches).filter((m) => m.loser).length,
        ...(tournament.declareWinner && winnerId
          ? {
              winnerType: tournament.soloOnly ? ('user' as const) : ('team' as const),
              winnerId,
            }
          : {}),
      })
      .where(eq(tournaments.id, tournament.id));
  }
  // Each bracket is also its tournament's single-elimination stage (issue 21), its played
  // matches linked to the records above, as the stage service would have written them.
  // The factories fill in what the database's defaults would (insertAll skips them).
  const stageRows: (typeof stages.$inferInsert)[] = [];
  const roundRows: (typeof stageRounds.$inferInsert)[] = [];
  const stageMatchRows: (typeof stageMatches.$inferInsert)[] = [];
  // The history of changes (issue 23) tells the story as the admin made it: the stage drawn, then each result.
  const [organiser] = await tx.select({ id: users.id, username: users.username }).from(users).where(eq(users.role, 'admin')).limit(1);
  const auditRows: (typeof auditLog.$inferInsert)[] = [];
  const noted = played.find((t) => t.status === 'finished');
  for (const tournament of played) {
    const bracket = brackets.get(tournament.id)!;
    const { ids, played: playedAt } = stagePlay.get(tournament.id)!;
    const stageId = randomUUID();
    const { seeds, entered } = fromBracket(bracket);
    stageRows.push(stageFactory.values({ id: stageId, tournamentId: tournament.id, seeds, createdAt: tournament.date }));
    const nameOf = new Map(participantsOf.get(tournament.id)!.map((side) => [side.id, side.name]));
    const by = { actorId: organiser?.id ?? null, actorName: organiser?.username ?? '' };
    const drawn: StageSnapshot = { name: '', number: 1, format: 'single_elimination', participants: seeds.filter((id) => id !== null).length };
    auditRows.push({ tournamentId: tournament.id, ...by, kind: 'stageCreated', subjectId: stageId, after: { ...drawn }, createdAt: tournament.date });
    const resolved = resolveStage(singleEliminationPlan(seeds.length), seeds, entered);
    let index = 0;
    bracket.forEach((round, r) => {
      const roundId = randomUUID();
      roundRows.push(stageRoundFactory.values({ id: roundId, stageId, number: r + 1 }));
      round.matches.forEach((_, m) => {
        const state = resolved[index++]!;
        const play = playedAt.get(ids[r]![m]!);
        const score = play?.score;
        stageMatchRows.push(
          stageMatchFactory.values({
            id: ids[r]![m]!,
            stageId,
            roundId,
            round: r + 1,
            position: m + 1,
            participantA: state.a,
            participantB: state.b,
            scoreA: score?.[0] ?? null,
            scoreB: score?.[1] ?? null,
            winner: state.winner,
            status: state.status,
            completedAt: state.status === 'completed' ? (play?.at ?? tournament.date) : null,
            updatedAt: play?.at ?? tournament.date,
            ...(tournament === noted && r === bracket.length - 1 && play && state.winner ? { comment: ORGANISERS_NOTE, commentPublic: false } : {}),
          }),
        );
        if (play && state.winner) {
          const sides = { a: state.a ? (nameOf.get(state.a) ?? '') : null, b: state.b ? (nameOf.get(state.b) ?? '') : null };
          const before: MatchSnapshot = { ...sides, result: null };
          const after: MatchSnapshot = {
            ...sides,
            result: { scoreA: score?.[0] ?? null, scoreB: score?.[1] ?? null, winner: state.winner === state.a ? 'a' : 'b', forfeit: null },
          };
          auditRows.push({
            tournamentId: tournament.id,
            matchId: ids[r]![m]!,
            ...by,
            kind: 'resultEntered',
            before: { ...before },
            after: { ...after },
            createdAt: play.at,
          });
        }
      });
    });
  }
  await insertAll(tx, stages, stageRows);
  await insertAll(tx, stageRounds, roundRows);
  await insertAll(tx, stageMatches, stageMatchRows);
  await insertAll(tx, auditLog, auditRows);
  await insertAll(tx, matches, matchRows);
  await insertAll(tx, matchParticipants, participantRows);
  const rows = [...standings.entries()].map(([key, s]) => {
    const [type, id, gameId] = key.split(':') as [ParticipantType, string, string];
    return { type, id, gameId, ...s };
  });
  await insertAll(
    tx,
    playerGameStats,
    rows.filter((r) => r.type === 'user').map(({ type: _type, id, ...s }) => ({ userId: id, ...s })),
  );
  await insertAll(
    tx,
    teamGameStats,
    rows.filter((r) => r.type === 'team').map(({ type: _type, id, ...s }) => ({ teamId: id, ...s })),
  );
  await insertAll(tx, earnedAchievements, earnedRows);
  await insertAll(tx, notifications, noticeRows);
}

/**
 * Inserts many rows with one parameter: the rows go as a JSON array that the database unpacks
 * with json_populate_recordset into the table's own row type (column defaults do not apply, so
 * every row names every column it needs). Thousands of rows a second faster than bound values.
 */
async function insertAll<T extends Parameters<Tx['insert']>[0]>(tx: Tx, table: T, rows: readonly T['$inferInsert'][]) {
  if (rows.length === 0) return;
  const name = getTableName(table);
  const entries = Object.entries(getTableColumns(table));
  const json = rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, column] of entries) {
      const value = (row as Record<string, unknown>)[key];
      if (value !== undefined) out[column.name] = value instanceof Date ? value.toISOString() : value;
    }
    return out;
  });
  const present = entries.filter(([key]) => rows.some((row) => (row as Record<string, unknown>)[key] !== undefined)).map(([, c]) => c.name);
  const list = sql.raw(present.map((c) => `"${c}"`).join(', '));
  await tx.execute(
    sql`insert into ${sql.identifier(name)} (${list}) select ${list} from json_populate_recordset(null::${sql.identifier(name)}, ${JSON.stringify(json)}::json)`,
  );
}
