/** Most players one team may hold (SPEC §9): an invite into a full team cannot be accepted. */
export const TEAM_MAX_MEMBERS = 7;
/** Longest team name, in characters. */
export const TEAM_NAME_MAX = 40;

/** Whether a team of `memberCount` players still has room for one more. */
export const hasRoomForMember = (memberCount: number): boolean => memberCount < TEAM_MAX_MEMBERS;

/**
 * The one or two letters that stand in for a team's missing logo: the first letters of its first
 * two words, or the first two letters of a one-word name ("Odesa Storm" → "OS", "Alpha" → "AL",
 * "Кіберклуб «Львів»" → "КЛ").
 */
export function teamInitials(name: string): string {
  // Spaces and punctuation part words: a quote or a dash around a word is not its first letter.
  const words = name.trim().split(/[\s\p{P}]+/u).filter(Boolean);
  const letters = words.length > 1 ? [[...words[0]!][0], [...words[1]!][0]] : [...(words[0] ?? '?')].slice(0, 2);
  return letters.join('').toUpperCase();
}

type Ref = string | { _id: string } | null | undefined;
const idOf = (ref: Ref) => (typeof ref === 'string' ? ref : ref?._id);

/**
 * Whether `userId` captains the team: the captain field when present (an object or an id),
 * otherwise the first-listed member (SPEC §3 Team, §6).
 */
export function isCaptain(team: { captain?: Ref; members?: readonly Ref[] }, userId: string | null | undefined): boolean {
  if (!userId) return false;
  const captain = idOf(team.captain) ?? idOf(team.members?.[0]);
  return captain === userId;
}

/** Control characters (other than tab and line breaks) have no place in names or messages; NUL cannot even be stored. */
// eslint-disable-next-line no-control-regex
export const hasControlCharacters = (value: string): boolean => /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(value);
