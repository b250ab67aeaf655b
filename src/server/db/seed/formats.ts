/**
 * The formats circuits run, in the demo (issue 59): the CS2 Aim Major plays a Swiss stage with
 * Valve's thresholds, three rounds played and the fourth under way (the 3–0s through, the 0–3s
 * out, deciding matches best of three); the Dota 2 mid duels play two GSL groups, one finished and
 * one waiting for its decider; the PUBG Mobile cup's two lobbies sent their top four to the final
 * lobby, which has played its first game, and those two lobbies count in PUBG Mobile's ratings. Drawn and played by the organiser through the services, so every
 * rule is the one a real organiser meets.
 */
import { eq } from 'drizzle-orm';
import type { Database, Tx } from '../client.ts';
import { users } from '../schema/index.ts';
import { createStage } from '../../services/competition/stages/commands.ts';
import { updateMatch } from '../../services/competition/stages/match-changes.ts';
import { enterGame } from '../../services/competition/stages/lobbies.ts';
import { loadStages } from '../../services/competition/stages/store.ts';
import { setupGame } from '../../services/competition/game-management.ts';
import { enableStats } from '../../services/statistics/tournament-stats.ts';
import { bestOfAt } from '../../services/competition/stages/views.ts';

/** A result for the better seed unless it is an upset: the lower seed then wins (every fifth match). */
function resultFor(bestOf: number, upset: boolean): { scoreA: number; scoreB: number } {
  const [won, lost] = bestOf > 1 ? [Math.ceil(bestOf / 2), 1] : [16, 11];
  return upset ? { scoreA: lost, scoreB: won } : { scoreA: won, scoreB: lost };
}

/** Plays ready matches of the tournament's first stage, in order, until `stop` says so or none is ready. */
async function play(tx: Tx, tournamentId: string, actor: { id: string; username: string }, stop: (played: number, round: number) => boolean): Promise<void> {
  for (let played = 0; played < 200; played++) {
    const [loaded] = await loadStages(tx, tournamentId);
    const index = loaded?.resolved.findIndex((m) => m.status === 'ready') ?? -1;
    if (!loaded || index === -1 || stop(played, loaded.plan[index]!.round)) return;
    const row = loaded.rows[index]!;
    const saved = await updateMatch(tx as Database, row.id, { version: row.version, ...resultFor(bestOfAt(loaded, index), played % 5 === 3) }, actor);
    if (!saved.ok) throw new Error(`demo seed: result refused (${saved.reason})`);
  }
}

/** The games of round `round`'s lobbies of the free-for-all stage, lobby by lobby, until `games` are entered in each. */
async function playLobbies(tx: Tx, tournamentId: string, admin: { id: string; role: 'admin' }, round: number, games: number): Promise<void> {
  for (let guard = 0; guard < 20; guard++) {
    const [loaded] = await loadStages(tx, tournamentId);
    const open = loaded?.lobbies.find((l) => l.row.round === round && l.games.filter((g) => g.state === 'confirmed').length < games);
    if (!loaded || !open) return;
    const number = open.games.length + 1;
    const members = open.row.members;
    // Each game another member wins; kills fall with the placement, the winner's highest.
    const order = members.map((_, i) => members[(i + number * 3) % members.length]!);
    const lines = order.map((participant, i) => ({ participant, placement: i + 1, kills: Math.max(0, 6 - i - (number % 2)) }));
    const entered = await enterGame(tx as Database, open.row.id, number, lines, admin);
    if (!entered.ok) throw new Error(`demo seed: game refused (${entered.reason})`);
  }
}

export async function seedFormats(tx: Tx, { swissId, gslId, ffaId }: { swissId: string; gslId: string; ffaId: string }): Promise<void> {
  const [admin] = await tx.select({ id: users.id, username: users.username }).from(users).where(eq(users.role, 'admin')).limit(1);
  if (!admin) return;
  const swiss = await createStage(
    tx,
    swissId,
    { format: 'swiss', name: 'Швейцарський етап', seeding: 'order', settings: { winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 3, autoPair: true } },
    admin,
  );
  if (!swiss.ok) throw new Error(`demo seed: Swiss stage refused (${swiss.reason})`);
  // Rounds 1–3 (24 matches) and the first two of round 4; the rest of round 4 is tonight's.
  await play(tx, swissId, admin, (played) => played >= 26);
  const gsl = await createStage(tx, gslId, { format: 'gsl', name: 'Групи', seeding: 'order', settings: { groups: 2 } }, admin);
  if (!gsl.ok) throw new Error(`demo seed: GSL stage refused (${gsl.reason})`);
  // Group A played through; group B waits for its decider.
  await play(tx, gslId, admin, (played) => played >= 9);
  const ffa = await createStage(
    tx,
    ffaId,
    {
      format: 'free_for_all',
      name: 'Лобі',
      seeding: 'order',
      settings: { lobbySize: 8, games: 3, advance: 4, points: { placement: [10, 6, 5, 4, 3, 2, 1, 1], kill: 1 } },
    },
    admin,
  );
  if (!ffa.ok) throw new Error(`demo seed: free-for-all stage refused (${ffa.reason})`);
  // PUBG Mobile keeps statistics, so its finished lobbies count in the ratings by placement (decision 039).
  const stats = await setupGame(tx, { name: 'PUBG Mobile', template: 'default' });
  if (!stats.ok) throw new Error('demo seed: PUBG Mobile already has statistics');
  await enableStats(tx, ffaId);
  // Both lobbies of round 1 played (the final's lobby made from them), then the final's first game.
  await playLobbies(tx, ffaId, { id: admin.id, role: 'admin' }, 1, 3);
  await playLobbies(tx, ffaId, { id: admin.id, role: 'admin' }, 2, 1);
}
