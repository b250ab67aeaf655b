import type { admin as uk } from '../uk/admin.ts';

export const admin: Record<keyof typeof uk, string> = {
  'admin.title': 'Admin panel',
  'admin.tournamentsTitle': 'Tournament management',
  'admin.only': 'access only for administrator',
  'admin.checking': 'Checking access...',
  'admin.welcome': 'Welcome, {name}! Management panels will appear here.',
};
