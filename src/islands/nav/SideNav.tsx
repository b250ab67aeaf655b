import { useEffect, useState } from 'react';
import { currentLocale, LOCALE_COOKIE, t, type CommonKey } from '../../lib/i18n/common.ts';
import { $navCollapsed, $theme } from '../../lib/stores/preferences.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { $isAdmin, $user, signOut } from '../../lib/stores/session.ts';
import { UserAvatar } from '../../components/UserAvatar.tsx';
import { Icon, type IconName } from './icons.tsx';

interface Item {
  href: string;
  label: CommonKey;
  icon: IconName;
  adminOnly?: boolean;
}

const items: Item[] = [
  { href: '/', label: 'nav.home', icon: 'home' },
  { href: '/tournaments', label: 'nav.tournaments', icon: 'tournaments' },
  { href: '/news', label: 'nav.news', icon: 'news' },
  { href: '/leaderboards', label: 'nav.leaderboards', icon: 'leaderboards' },
  { href: '/team', label: 'nav.team', icon: 'team' },
  { href: '/cabinet', label: 'nav.cabinet', icon: 'cabinet' },
  { href: '/admin', label: 'nav.admin', icon: 'admin', adminOnly: true },
];

const isCurrent = (href: string, path: string) => (href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`));

/** Side navigation: collapses to icons on wide screens, a drawer behind a menu button on phones. */
export default function SideNav({ path }: { path: string }) {
  // The server knows no session and no stored choices: hydrate with its view, then apply the browser's.
  const user = useHydratedStore($user, null);
  const isAdmin = useHydratedStore($isAdmin, false);
  const theme = useHydratedStore($theme, 'dark');
  const collapsed = useHydratedStore($navCollapsed, false);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  /**
   * Remembers the other language for a year (the server reads the cookie) and shows the page in it;
   * a signed-in reader's letters follow it too (best effort: the page changes language either way).
   */
  async function switchLanguage() {
    const next = currentLocale() === 'uk' ? 'en' : 'uk';
    document.cookie = `${LOCALE_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
    if (user) {
      await Promise.all([import('../../lib/stores/api.ts'), import('../../lib/api/locale.ts')])
        .then(([{ api }, { saveLocale }]) => saveLocale(api, next))
        .catch(() => undefined);
    }
    window.location.reload();
  }

  async function handleSignOut() {
    await signOut();
    window.location.assign('/login');
  }

  const linkClass = (href: string) =>
    `flex items-center gap-3 rounded-lg px-3 py-2 text-fg no-underline hover:bg-surface-2 hover:no-underline ${
      isCurrent(href, path) ? 'bg-surface-2 font-semibold text-accent' : ''
    }`;
  const label = (key: CommonKey) => <span className={collapsed ? 'md:sr-only' : ''}>{t(key)}</span>;

  return (
    <header className={`z-40 border-line bg-surface md:sticky md:top-0 md:h-dvh md:shrink-0 md:border-r ${collapsed ? 'md:w-18' : 'md:w-60'}`}>
      <div className="flex items-center justify-between gap-2 border-b border-line px-3 py-2 md:border-b-0 md:py-4">
        <a href="/" className="flex items-center gap-2 font-bold text-fg no-underline hover:no-underline">
          <img src="/favicon.svg" alt="" width="32" height="32" className="size-8" />
          <span className={collapsed ? 'md:sr-only' : ''}>{t('site.name')}</span>
        </a>
        <button
          type="button"
          className="btn-ghost px-2 md:hidden"
          aria-expanded={open}
          aria-controls="site-nav"
          aria-label={open ? t('nav.collapse') : t('nav.expand')}
          onClick={() => setOpen(!open)}
        >
          <Icon name={open ? 'close' : 'menu'} />
        </button>
      </div>
      <nav
        id="site-nav"
        aria-label={t('nav.label')}
        className={`${open ? 'flex' : 'hidden'} flex-col gap-1 px-2 pb-3 md:flex md:h-[calc(100dvh-4.5rem)] md:pb-4`}
      >
        <ul className="flex flex-col gap-1">
          {items
            .filter((item) => !item.adminOnly || isAdmin)
            .map((item) => (
              <li key={item.href}>
                <a href={item.href} className={linkClass(item.href)} aria-current={isCurrent(item.href, path) ? 'page' : undefined}>
                  <Icon name={item.icon} />
                  {label(item.label)}
                </a>
              </li>
            ))}
        </ul>
        <div className="mt-auto flex flex-col gap-1 pt-4">
          {user && (
            <a href="/cabinet" className={linkClass('#me')} data-testid="nav-user">
              <UserAvatar user={user} size="sm" showName={!collapsed} />
            </a>
          )}
          <button type="button" className={linkClass('#lang')} onClick={switchLanguage} aria-label={t('nav.switchLanguageLabel')}>
            <Icon name="language" />
            <span lang={currentLocale() === 'uk' ? 'en' : 'uk'} className={collapsed ? 'md:sr-only' : ''}>
              {t('nav.switchLanguage')}
            </span>
          </button>
          <button type="button" className={linkClass('#theme')} onClick={() => $theme.set(theme === 'dark' ? 'light' : 'dark')}>
            <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
            {label(theme === 'dark' ? 'nav.themeLight' : 'nav.themeDark')}
          </button>
          {user ? (
            <button type="button" className={linkClass('#signout')} onClick={handleSignOut}>
              <Icon name="signOut" />
              {label('nav.signOut')}
            </button>
          ) : (
            <a href="/login" className={linkClass('/login')}>
              <Icon name="signIn" />
              {label('nav.signIn')}
            </a>
          )}
          <button
            type="button"
            className={`${linkClass('#collapse')} hidden md:flex`}
            aria-label={collapsed ? t('nav.expand') : t('nav.collapse')}
            aria-pressed={collapsed}
            onClick={() => $navCollapsed.set(!collapsed)}
          >
            <Icon name={collapsed ? 'expand' : 'collapse'} />
            {label(collapsed ? 'nav.expand' : 'nav.collapse')}
          </button>
        </div>
      </nav>
    </header>
  );
}
