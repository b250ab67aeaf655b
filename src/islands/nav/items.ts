import type { CommonKey } from '../../lib/i18n/common.ts';
import type { IconName } from './icons.ts';

export interface NavItem {
  href: string;
  label: CommonKey;
  icon: IconName;
  /** Shown only to admins: the server renders it hidden, the nav's script shows it once the session says so. */
  adminOnly?: boolean;
}

/** The side navigation's sections, in order (SPEC §2 Navigation). */
export const NAV_ITEMS: readonly NavItem[] = [
  { href: '/', label: 'nav.home', icon: 'home' },
  { href: '/tournaments', label: 'nav.tournaments', icon: 'tournaments' },
  { href: '/organisations', label: 'nav.organisations', icon: 'organisations' },
  { href: '/news', label: 'nav.news', icon: 'news' },
  { href: '/leaderboards', label: 'nav.leaderboards', icon: 'leaderboards' },
  { href: '/team', label: 'nav.team', icon: 'team' },
  { href: '/cabinet', label: 'nav.cabinet', icon: 'cabinet' },
  { href: '/admin', label: 'nav.admin', icon: 'admin', adminOnly: true },
];

/** Whether `href` is the section of `path`: home only itself, the others their own pages and those under them. */
export const isCurrent = (href: string, path: string): boolean => (href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`));
