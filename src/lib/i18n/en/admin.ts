import type { admin as uk } from '../uk/admin.ts';

export const admin: Record<keyof typeof uk, string> = {
  'admin.title': 'Admin panel',
  'admin.tournamentsTitle': 'Tournament management',
  'admin.only': 'access only for administrator',
  'admin.checking': 'Checking access...',
  'admin.sections': 'Admin panel sections',
  'admin.section.applications': 'Applications',
  'admin.section.tournaments': 'Tournaments',
  'admin.section.results': 'Match statistics for the leaderboards',
  'admin.section.games': 'Games and statistics',
  'admin.section.news': 'News',
  'admin.section.organisations': 'Organisations',
  'admin.tournamentList': 'Tournament list',
  'admin.welcome': 'Welcome, {name}! Management panels will appear here.',
};
