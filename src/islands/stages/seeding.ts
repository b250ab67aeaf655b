import type { BracketParticipant } from '../../lib/api/bracket.ts';

/** The manual seeding list (issue 21): the admin's order of the approved participants, seed 1 first. */

/** The list with the item at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  if (from < 0 || from >= next.length) return next;
  const target = Math.max(0, Math.min(next.length - 1, to));
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item!);
  return next;
}

/** The list with the item at `index` moved one place up (−1) or down (+1); null when it is already at that end. */
export function moveBy<T>(list: readonly T[], index: number, delta: -1 | 1): { list: T[]; index: number } | null {
  const to = index + delta;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return null;
  return { list: moveItem(list, index, to), index: to };
}

/**
 * The admin's order kept in step with the participants the server now lists: whoever is still
 * approved keeps their place, whoever left drops out, newcomers join at the end in application order.
 */
export function reconcileOrder(order: readonly string[], participants: readonly Pick<BracketParticipant, '_id'>[]): string[] {
  const present = new Set(participants.map((p) => p._id));
  const kept = order.filter((id) => present.has(id));
  const known = new Set(kept);
  return [...kept, ...participants.map((p) => p._id).filter((id) => !known.has(id))];
}

/**
 * Where the row dragged from `from` lands when the pointer is at `y`: after every other row whose
 * vertical middle the pointer has passed (rows given by top and height, in `y`'s coordinates).
 */
export function dropIndex(rows: readonly { top: number; height: number }[], from: number, y: number): number {
  return rows.filter((row, i) => i !== from && y > row.top + row.height / 2).length;
}
