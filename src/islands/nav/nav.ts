/**
 * The side navigation's script (SideNav.astro): a few listeners on the server's HTML, no React.
 * Guests load only this and the preference stores; the session store (and through it the API
 * client) is fetched only when a token exists (`onSession`).
 */
import { fallbackTo } from '../../components/fallback-image.ts';
import { apiAsset, DEFAULT_AVATAR } from '../../lib/api/assets.ts';
import type { Me, User } from '../../lib/api/auth.ts';
import { LOCALE_COOKIE } from '../../lib/i18n/core.ts';
import { $navCollapsed, $theme } from '../../lib/stores/preferences.ts';
import { onSession } from '../../lib/stores/signed-in.ts';

const showDefaultAvatar = fallbackTo(DEFAULT_AVATAR);

/** The element marked `data-<name>` inside `root`; the nav's HTML always has it. */
function part<T extends HTMLElement = HTMLElement>(root: ParentNode, name: string): T {
  const found = root.querySelector<T>(`[data-${name}]`);
  if (!found) throw new Error(`nav: no [data-${name}]`);
  return found;
}

export function startNav(header: HTMLElement): void {
  const menu = part<HTMLButtonElement>(header, 'nav-menu');
  const nav = part(header, 'nav-admin').closest('nav')!;
  const collapse = part<HTMLButtonElement>(header, 'nav-collapse');

  // Phones: the drawer behind the menu button; Escape closes it.
  const setOpen = (open: boolean) => {
    menu.setAttribute('aria-expanded', String(open));
    menu.setAttribute('aria-label', (open ? menu.dataset.labelOpen : menu.dataset.labelClosed) ?? '');
    nav.classList.toggle('hidden', !open);
    nav.classList.toggle('flex', open);
  };
  menu.addEventListener('click', () => setOpen(menu.getAttribute('aria-expanded') !== 'true'));
  window.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && menu.getAttribute('aria-expanded') === 'true') setOpen(false);
  });

  // Wide screens: icons only, remembered (the pre-paint line in Base.astro applies it first).
  $navCollapsed.subscribe((collapsed) => {
    if (collapsed) document.body.dataset.nav = 'collapsed';
    else delete document.body.dataset.nav;
    collapse.setAttribute('aria-pressed', String(collapsed));
    collapse.setAttribute('aria-label', (collapsed ? collapse.dataset.labelCollapsed : collapse.dataset.labelExpanded) ?? '');
  });
  collapse.addEventListener('click', () => $navCollapsed.set(!$navCollapsed.get()));

  // The theme store mirrors itself to <body data-theme>; the button's two faces follow by CSS.
  part(header, 'nav-theme').addEventListener('click', () => $theme.set($theme.get() === 'dark' ? 'light' : 'dark'));

  let user: User | Me | null = null;

  /**
   * Remembers the other language for a year (the server reads the cookie) and shows the page in it;
   * a signed-in reader's letters follow it too (best effort: the page changes language either way).
   */
  const language = part<HTMLButtonElement>(header, 'nav-language');
  language.addEventListener('click', async () => {
    const next = language.dataset.navLanguage === 'en' ? 'en' : 'uk';
    document.cookie = `${LOCALE_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
    if (user) {
      await Promise.all([import('../../lib/stores/api.ts'), import('../../lib/api/locale.ts')])
        .then(([{ api }, { saveLocale }]) => saveLocale(api, next))
        .catch(() => undefined);
    }
    window.location.reload();
  });

  part(header, 'nav-signout').addEventListener('click', async () => {
    const { signOut } = await import('../../lib/stores/session.ts');
    await signOut();
    window.location.assign('/login');
  });

  const userLink = header.querySelector<HTMLAnchorElement>('[data-testid="nav-user"]')!;
  const avatar = part<HTMLImageElement>(userLink, 'nav-avatar');
  avatar.addEventListener('error', () => showDefaultAvatar({ currentTarget: avatar }));

  const show = (next: User | Me | null) => {
    user = next;
    part(header, 'nav-admin').hidden = next?.role !== 'admin';
    userLink.hidden = !next;
    part(header, 'nav-signout').hidden = !next;
    part(header, 'nav-signin').hidden = Boolean(next);
    if (next) {
      const src = apiAsset(next.avatar || `/api/avatar/${next._id}`);
      if (avatar.getAttribute('src') !== src) avatar.src = src;
      part(userLink, 'nav-username').textContent = next.username;
    }
  };
  onSession(show);
}
