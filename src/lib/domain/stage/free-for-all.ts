/**
 * Free-for-all lobbies (issue 59, decision 039), as PUBG Mobile, Free Fire, Fortnite, Apex and
 * Standoff-style mobile events play them: participants are spread over lobbies of at most
 * `lobbySize` (by seed, in a snake, so each lobby gets a fair mix); each lobby plays `games` games;
 * each game gives every participant a placement and kills; a lobby's table adds placement points and
 * kill points; the top `advance` of each lobby go on to the next round's lobbies, until one lobby —
 * the final — is left and decides the places. Pure.
 */
import type { FfaPoints, FfaSettings } from './format.ts';
import { snakeGroups } from './snake.ts';
import type { Placement } from './standings.ts';

/** A game's lines as an organiser entered them, or as a lobby's player proposed them for the organisers to enter. */
export const LOBBY_GAME_STATES = ['confirmed', 'proposed'] as const;

/** One participant's line of one game. */
export interface FfaLine {
  participant: string;
  /** 1 the winner of the game. */
  placement: number;
  kills: number;
}

export type GameRefusal = 'notEveryone' | 'stranger' | 'twice' | 'placements';

/**
 * Whether a game's lines fit its lobby: every member once, nobody else, and the placements 1…n each
 * once (a battle royale ranks everyone; two can never share a place). A disqualified member (`out`)
 * plays no more, so its line may be left out; the places then run 1…n over those who played.
 */
export function gameProblem(members: readonly string[], lines: readonly FfaLine[], out: ReadonlySet<string> = new Set()): GameRefusal | null {
  const inLobby = new Set(members);
  const seen = new Set<string>();
  for (const line of lines) {
    if (!inLobby.has(line.participant)) return 'stranger';
    if (seen.has(line.participant)) return 'twice';
    seen.add(line.participant);
  }
  if (members.some((member) => !seen.has(member) && !out.has(member))) return 'notEveryone';
  const places = lines.map((l) => l.placement).sort((x, y) => x - y);
  return places.every((p, i) => p === i + 1) ? null : 'placements';
}

/** The rounds' lobby counts for `n` participants: each round's lobbies send `advance` each on, until one lobby is left. */
export function ffaRounds(participants: number, settings: Pick<FfaSettings, 'lobbySize' | 'advance'>): number[] {
  const rounds: number[] = [];
  let left = participants;
  for (;;) {
    const lobbies = Math.max(1, Math.ceil(left / settings.lobbySize));
    rounds.push(lobbies);
    if (lobbies === 1) return rounds;
    const next = lobbies * (settings.advance ?? 0);
    // Settings that would not narrow the field (validated away by `ffaProblem`) end in one lobby.
    if (next >= left || next < 2) return rounds;
    left = next;
  }
}

export type FfaSettingsRefusal = 'advanceNeeded' | 'advanceTooLarge' | 'tooFewForLobby';

/** What keeps these settings from making a stage of `participants`: a round that does not narrow the field, or nobody to play with. */
export function ffaProblem(participants: number, settings: FfaSettings): FfaSettingsRefusal | null {
  if (participants < 2) return 'tooFewForLobby';
  const lobbies = Math.ceil(participants / settings.lobbySize);
  if (lobbies === 1) return null;
  if (settings.advance === undefined) return 'advanceNeeded';
  // The smallest lobby of a round must send fewer than it has, or the round decides nothing.
  let left = participants;
  for (let count = lobbies; count > 1; count = Math.ceil(left / settings.lobbySize)) {
    if (settings.advance >= Math.floor(left / count) || count * settings.advance < 2) return 'advanceTooLarge';
    left = count * settings.advance;
  }
  return null;
}

/** A round's lobbies from its participants in seed order: as few lobbies as the size allows, filled in a snake. */
export const ffaLobbies = (ordered: readonly string[], lobbySize: number): string[][] =>
  snakeGroups(ordered, Math.max(1, Math.ceil(ordered.length / lobbySize)));

export interface LobbyRow {
  participant: string;
  rank: number;
  /** Games with a line for this participant. */
  played: number;
  points: number;
  placementPoints: number;
  kills: number;
  /** Its best placement so far; null before its first game. */
  bestPlacement: number | null;
  /** Its placement in the lobby's latest game. */
  lastPlacement: number | null;
  /** Each game's placement, in game order (null where a game has no line yet). */
  placements: (number | null)[];
}

/**
 * A lobby's table over its games so far: total points, then the best placement, then total kills,
 * then the last game's placement, then the seed (`members` in seed order).
 */
export function lobbyTable(members: readonly string[], games: readonly (readonly FfaLine[])[], points: FfaPoints): LobbyRow[] {
  const rows = new Map(
    members.map((participant, seed) => [
      participant,
      {
        participant,
        seed,
        played: 0,
        points: 0,
        placementPoints: 0,
        kills: 0,
        bestPlacement: null as number | null,
        lastPlacement: null as number | null,
        placements: [] as (number | null)[],
      },
    ]),
  );
  for (const game of games) {
    const lines = new Map(game.map((line) => [line.participant, line]));
    for (const row of rows.values()) {
      const line = lines.get(row.participant);
      row.placements.push(line?.placement ?? null);
      if (!line) continue;
      const placed = points.placement[line.placement - 1] ?? 0;
      row.played += 1;
      row.placementPoints += placed;
      row.kills += line.kills;
      row.points += placed + line.kills * points.kill;
      row.bestPlacement = row.bestPlacement === null ? line.placement : Math.min(row.bestPlacement, line.placement);
      row.lastPlacement = line.placement;
    }
  }
  const worst = Number.MAX_SAFE_INTEGER;
  return [...rows.values()]
    .sort(
      (x, y) =>
        y.points - x.points ||
        (x.bestPlacement ?? worst) - (y.bestPlacement ?? worst) ||
        y.kills - x.kills ||
        (x.lastPlacement ?? worst) - (y.lastPlacement ?? worst) ||
        x.seed - y.seed,
    )
    .map(({ seed: _seed, ...row }, index) => ({ ...row, rank: index + 1 }));
}

/**
 * The next round's participants in seed order from a finished round's tables (each in rank order):
 * the lobbies' winners first, then their runners-up, … each tier by points, then the round's seed.
 */
export function advancers(tables: readonly (readonly LobbyRow[])[], advance: number): string[] {
  const result: string[] = [];
  for (let tier = 0; tier < advance; tier++) {
    const row = tables.map((table) => table[tier]).filter((r): r is LobbyRow => r !== undefined);
    result.push(...row.sort((x, y) => y.points - x.points).map((r) => r.participant));
  }
  return result;
}

/**
 * Final places of a finished stage: the final lobby's table place by place; those out in an earlier
 * round after everyone who went further, the same rank of each lobby sharing a band (the later the
 * round, the better). `rounds` first round first, each a list of its lobbies' tables.
 */
export function ffaPlacements(rounds: readonly (readonly (readonly LobbyRow[])[])[]): Placement[] {
  const placements: Placement[] = [];
  const later = new Set<string>();
  let next = 1;
  const last = rounds.length - 1;
  for (let r = last; r >= 0; r--) {
    const tables = rounds[r]!;
    if (r === last && tables.length === 1) {
      for (const row of tables[0]!) placements.push({ participant: row.participant, from: row.rank, to: row.rank });
      next = tables[0]!.length + 1;
      tables[0]!.forEach((row) => later.add(row.participant));
      continue;
    }
    const out = tables.map((table) => table.filter((row) => !later.has(row.participant)));
    for (let tier = 0; out.some((table) => table[tier]); tier++) {
      const band = out.map((table) => table[tier]).filter((row): row is LobbyRow => row !== undefined);
      for (const row of band) placements.push({ participant: row.participant, from: next, to: next + band.length - 1 });
      next += band.length;
    }
    tables.flat().forEach((row) => later.add(row.participant));
  }
  return placements;
}
