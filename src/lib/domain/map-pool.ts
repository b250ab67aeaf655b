/**
 * A game's map pool (issue 58): the maps its matches are vetoed on, and the names of its two
 * starting sides. A game keeps one (game management), a tournament may play its own instead.
 * Maps are named as players know them and stored by that name.
 */
export const MAP_NAME_MAX = 32;
export const SIDE_NAME_MAX = 24;

export interface MapPool {
  maps: string[];
  /** The two starting sides, as the game calls them; a veto's `side` is 0 or 1 of these. */
  sides: [string, string];
}

/**
 * The current competitive pools the game form offers to fill in. CS2: the Active Duty group since
 * Premier Season 4 (January 2026, Anubis back for Train); Valorant: the rotation of patch 12.05
 * (Season 2026 Act 2). Both change every few months, so they are a starting point the admin edits,
 * never read at play time.
 */
export const DEFAULT_MAP_POOLS = {
  cs2: { maps: ['Ancient', 'Anubis', 'Dust II', 'Inferno', 'Mirage', 'Nuke', 'Overpass'], sides: ['CT', 'T'] },
  valorant: { maps: ['Bind', 'Breeze', 'Fracture', 'Haven', 'Lotus', 'Pearl', 'Split'], sides: ['Attack', 'Defense'] },
} as const satisfies Record<string, { maps: readonly string[]; sides: readonly [string, string] }>;
export type KnownPool = keyof typeof DEFAULT_MAP_POOLS;

/** Which default pool a game's name points to, if any. */
export function knownPoolOf(gameName: string): KnownPool | null {
  if (/counter[- ]?strike|\bcs ?2\b|\bcs:? ?go\b/i.test(gameName)) return 'cs2';
  if (/valorant/i.test(gameName)) return 'valorant';
  return null;
}

/** A name as stored: trimmed, spaces collapsed, in NFC. */
export const mapName = (name: string): string => name.normalize('NFC').replace(/\s+/g, ' ').trim();

/** Whether a map is named twice, in any case or spacing. */
export function hasDuplicateMap(maps: readonly string[]): boolean {
  const names = maps.map((m) => mapName(m).toLocaleLowerCase('uk'));
  return new Set(names).size !== names.length;
}

export type MapPoolProblem = 'duplicate' | 'sidesMissing';

/**
 * Why a pool cannot be saved, or null: no map twice (in any case or spacing), and both sides
 * named when there are maps. An empty pool (no veto) is fine. Lengths and counts are the schema's.
 */
export function mapPoolProblem(maps: readonly string[], sides: readonly string[]): MapPoolProblem | null {
  if (hasDuplicateMap(maps)) return 'duplicate';
  if (maps.length > 0 && (sides.length !== 2 || !sides.every((side) => mapName(side)))) return 'sidesMissing';
  return null;
}
