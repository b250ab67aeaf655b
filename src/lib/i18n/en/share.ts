import type { share as uk } from '../uk/share.ts';

/** Share cards and embeds (issue 23). */
export const share: Record<keyof typeof uk, string> = {
  'share.kind.tournament': 'Tournament',
  'share.kind.match': 'Match',
  'share.kind.news': 'News',
  'share.kind.player': 'Player',
  'share.kind.organisation': 'Organisation',
  'share.kind.lobby': 'Lobby',
  'share.organisationVerified': 'Verified organisation',
  'share.champion': 'Champion: {name}',
  'share.bestRating': 'Rating {rating} · {rank}',
  'share.ratingGame': 'in {game}',
  'share.noRating': 'No rating yet',
  'share.teams': 'Teams: {names}',
  'share.noTeams': 'No team',
  'share.lobbyRow': '{rank}. {name} — {points} pts',
  'share.imageAlt': 'Share card: {title}',
  'share.tooMany': 'Too many new cards from your address. Try again in {wait}.',

  'embed.newTab': '(opens in a new tab)',
  'embed.tournamentTitle': '“{name}” bracket',
  'embed.matchTitle': 'Match: {a} vs {b}',
  'embed.snippetTitle': 'Embed the bracket on your site',
  'embed.snippetHint': 'Paste this code into a page of your site: the bracket updates live. Language: the lang parameter (uk or en); light theme: theme=light.',
  'embed.snippetLabel': 'Code to paste',
  'embed.copy': 'Copy code',
  'embed.copied': 'Code copied',
  'embed.copyFailed': 'Could not copy: select the code and copy it by hand',
};
