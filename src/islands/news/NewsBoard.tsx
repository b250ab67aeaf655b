import { useStore } from '@nanostores/react';
import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { ShowMore } from '../../components/ShowMore.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import {
  createNews,
  deleteNews,
  listNews,
  listSavedNews,
  listSavedNewsItems,
  saveNews,
  unsaveNews,
  updateNews,
  type NewsItem,
} from '../../lib/api/news.ts';
import { nextPageHref, readFirst, type Page } from '../../lib/api/paging.ts';
import { t, type MessageKey } from '../../lib/i18n/index.ts';
import { useHydrated } from '../../lib/hooks/hydration.ts';
import { usePages, type PagesState } from '../../lib/hooks/pages.ts';
import { api } from '../../lib/stores/api.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';
import { NewsCard } from './NewsCard.tsx';
import { NewsForm } from './NewsForm.tsx';

export const NEWS_VIEWS = ['all', 'saved', 'archive', 'add'] as const;
export type NewsView = (typeof NEWS_VIEWS)[number];

/** The view named by `?view=` of a /news address; All news when absent or unknown. */
export const viewFromSearch = (search: string): NewsView => {
  const value = new URLSearchParams(search).get('view');
  return NEWS_VIEWS.find((v) => v === value) ?? 'all';
};

const hrefOf = (view: NewsView) => (view === 'all' ? '/news' : `/news?view=${view}`);

const menu: { view: NewsView; label: MessageKey }[] = [
  { view: 'all', label: 'news.menuAll' },
  { view: 'saved', label: 'news.menuSaved' },
  { view: 'archive', label: 'news.menuArchive' },
  { view: 'add', label: 'news.menuAdd' },
];

/** How long a toast stays (SPEC §9). */
const TOAST_MS = 3000;

/** News cards per page of All news and Archive. */
export const NEWS_PAGE_SIZE = 10;

/** The list a view shows, if any: All news and Archive page through the server's lists. */
type Listed = 'all' | 'archive' | 'saved';

/** A page of `listed` from `offset`; a first page holds at least `shown` news (what is on screen already). */
async function readList(listed: Listed, offset: number, shown: number): Promise<Page<NewsItem>> {
  if (listed === 'saved') return { items: await listSavedNewsItems(api), more: false };
  const archived = listed === 'archive';
  if (offset > 0) return listNews(api, { archived, limit: NEWS_PAGE_SIZE, offset });
  return readFirst(Math.max(NEWS_PAGE_SIZE, shown), (from, limit) => listNews(api, { archived, limit, offset: from }));
}

type Toast = { tone: 'success' | 'error'; text: string };

interface Props {
  /** The first page of the view the address names, as the server rendered it; null for Saved and Add news. */
  initial: PagesState<NewsItem> | null;
  view: NewsView;
}

/**
 * The News page (SPEC §2): menu All news / Saved / Archive / Add news, cards that open on click,
 * Save and Remove from saved for players, Edit and Delete for admins. All news and Archive come a
 * page at a time with a «show more» button. Rendered on the server with the first page of its
 * view; the menu items are links, so without JavaScript All and Archive still work and every
 * card still opens.
 */
export default function NewsBoard({ initial, view: initialView }: Props) {
  // The server renders for a guest; hydration must match that even when the session is already known.
  const hydrated = useHydrated();
  const storedUser = useStore($user);
  const storedLoading = useStore($sessionLoading);
  const user = hydrated ? storedUser : null;
  const sessionLoading = hydrated ? storedLoading : true;
  const isAdmin = user?.role === 'admin';
  const canSave = Boolean(user) && !isAdmin;

  const [view, setView] = useState<NewsView>(initialView);
  const [savedIds, setSavedIds] = useState<Set<string> | null>(null);
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [toast, setToast] = useState<Toast | null>(null);

  // A signed-in reader gets the newest list (the page may come from a cache) and, unless admin, their saved ids.
  const userId = user?._id;
  const listed: Listed | null = view === 'all' || view === 'archive' ? view : view === 'saved' && canSave ? 'saved' : null;
  const key = JSON.stringify([listed, userId ?? null]);
  // A signed-in reader's fresh copy of the view the server rendered is as long as that was (a
  // `?page=N` address, say), so it does not shrink when the session is known.
  const rendered = listed === initialView && initial?.kind === 'loaded' ? initial.items.length : 0;
  const pages = usePages(key, (offset) => (listed ? readList(listed, offset, rendered) : Promise.resolve({ items: [], more: false })), {
    initial,
    errorText: t('news.loadError'),
  });
  // A new reader of the same list keeps it up while the fresh copy loads; another list waits for its own.
  const sameList = pages.shownKey !== null && JSON.parse(pages.shownKey)[0] === listed;
  const current = pages.state ?? (sameList ? pages.shown : null);

  useEffect(() => {
    if (!userId) return;
    let live = true;
    if (!isAdmin) {
      listSavedNews(api)
        .then((ids) => live && setSavedIds(new Set(ids)))
        .catch((error: unknown) => console.error('[news] saved', error));
    }
    return () => {
      live = false;
    };
  }, [userId, isAdmin]);

  useEffect(() => {
    const onPop = () => setView(viewFromSearch(window.location.search));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  function go(next: NewsView) {
    setView(next);
    setEditing(null);
    if (`${window.location.pathname}${window.location.search}` !== hrefOf(next)) window.history.pushState(null, '', hrefOf(next));
  }

  function onMenuClick(event: MouseEvent<HTMLAnchorElement>, next: NewsView) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go(next);
  }

  const busy = (id: string, on: boolean) =>
    setPending((current) => {
      const copy = new Set(current);
      if (on) copy.add(id);
      else copy.delete(id);
      return copy;
    });

  async function toggleSaved(item: NewsItem) {
    const saved = savedIds?.has(item._id) ?? false;
    busy(item._id, true);
    try {
      await (saved ? unsaveNews(api, item._id) : saveNews(api, item._id));
      setSavedIds((held) => {
        const copy = new Set(held);
        if (saved) copy.delete(item._id);
        else copy.add(item._id);
        return copy;
      });
      if (saved && listed === 'saved') pages.update((items) => items.filter((n) => n._id !== item._id));
    } catch (error) {
      setToast({ tone: 'error', text: errorMessage(error, t('news.savedToggleError')) });
    } finally {
      busy(item._id, false);
    }
  }

  async function remove(item: NewsItem) {
    if (!window.confirm(t('news.confirmDelete', { title: item.title }))) return;
    busy(item._id, true);
    try {
      await deleteNews(api, item._id);
      pages.update((items) => items.filter((n) => n._id !== item._id));
      setToast({ tone: 'success', text: t('news.deleted') });
    } catch (error) {
      setToast({ tone: 'error', text: errorMessage(error, t('news.deleteError')) });
    } finally {
      busy(item._id, false);
    }
  }

  async function add(body: Parameters<typeof createNews>[1]) {
    const created = await createNews(api, body);
    // The list it joins is read again from its first page, where the new item now is.
    go(created.archived ? 'archive' : 'all');
    setToast({ tone: 'success', text: t('news.added') });
  }

  async function edit(id: string, body: Parameters<typeof updateNews>[2]) {
    const updated = await updateNews(api, id, body);
    // Moved to or from the archive, it leaves the list it was in.
    const stays = listed === 'saved' || updated.archived === (listed === 'archive');
    pages.update((items) => (stays ? items.map((n) => (n._id === id ? updated : n)) : items.filter((n) => n._id !== id)));
    setEditing(null);
    setToast({ tone: 'success', text: t('news.updated') });
  }

  function actionsFor(item: NewsItem): ReactNode {
    const working = pending.has(item._id);
    if (isAdmin) {
      return (
        <>
          <button type="button" className="btn-ghost" onClick={() => setEditing(item._id)} disabled={working}>
            {t('news.edit')}
          </button>
          <button type="button" className="btn-ghost text-danger" onClick={() => void remove(item)} disabled={working}>
            {t('news.delete')}
          </button>
        </>
      );
    }
    if (canSave && savedIds) {
      const saved = savedIds.has(item._id);
      return (
        <button type="button" className={`btn-ghost ${saved ? 'text-accent' : ''}`} onClick={() => void toggleSaved(item)} disabled={working}>
          <svg viewBox="0 0 24 24" className="size-4" fill={saved ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth={2} strokeLinejoin="round" aria-hidden="true">
            <path d="M6 3h12v18l-6-4-6 4z" />
          </svg>
          {saved ? t('news.unsave') : t('news.save')}
        </button>
      );
    }
    return null;
  }

  function list(empty: MessageKey) {
    if (!current) return <Notice>{t('news.loading')}</Notice>;
    if (current.kind === 'error') return <Notice tone="error">{current.message}</Notice>;
    if (current.items.length === 0) return <p className="text-muted">{t(empty)}</p>;
    return (
      <>
        <ul className="flex flex-col gap-4">
          {current.items.map((item, index) => (
            <li key={item._id}>
              {editing === item._id ? (
                <section className="card" aria-label={t('news.edit')}>
                  <NewsForm
                    idPrefix={`edit-${item._id}`}
                    initial={item}
                    submitLabel={t('news.submitEdit')}
                    onSubmit={(body) => edit(item._id, body)}
                    onCancel={() => setEditing(null)}
                  />
                </section>
              ) : (
                <NewsCard item={item} actions={actionsFor(item)} priority={index === 0} />
              )}
            </li>
          ))}
        </ul>
        <ShowMore
          more={current.more}
          busy={pages.moreBusy || pages.loading}
          error={pages.moreError}
          onMore={() => void pages.loadMore()}
          href={listed === 'saved' ? undefined : nextPageHref(hrefOf(view), current.items.length, NEWS_PAGE_SIZE)}
        />
      </>
    );
  }

  function body(): ReactNode {
    switch (view) {
      case 'all':
        return list('news.empty');
      case 'archive':
        return list('news.emptyArchive');
      case 'saved':
        if (sessionLoading || (canSave && !savedIds)) return <Notice>{t('news.checking')}</Notice>;
        if (!canSave) {
          return (
            <p className="text-muted">
              {t('news.savedSignIn')} <a href="/login">{t('news.signIn')}</a>
            </p>
          );
        }
        return list('news.emptySaved');
      case 'add':
        if (sessionLoading) return <Notice>{t('news.checking')}</Notice>;
        if (!isAdmin) return <Notice tone="error">{t('news.addOnlyAdmin')}</Notice>;
        return (
          <section className="card" aria-label={t('news.menuAdd')}>
            <NewsForm idPrefix="add-news" submitLabel={t('news.submitAdd')} onSubmit={add} />
          </section>
        );
    }
  }

  const visible = menu.filter(
    (entry) => (entry.view !== 'saved' || canSave || view === 'saved') && (entry.view !== 'add' || isAdmin || view === 'add'),
  );

  return (
    <div className="flex flex-col gap-6">
      <nav aria-label={t('news.menuLabel')}>
        <ul className="flex flex-wrap gap-2">
          {visible.map((entry) => (
            <li key={entry.view}>
              <a
                href={hrefOf(entry.view)}
                onClick={(event) => onMenuClick(event, entry.view)}
                aria-current={view === entry.view ? 'page' : undefined}
                className={view === entry.view ? 'btn-primary' : 'btn-ghost'}
              >
                {t(entry.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {body()}
      <div role="status" className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex justify-center sm:inset-x-auto sm:right-6 sm:bottom-6">
        {toast && (
          <p className={`rounded-lg border bg-surface px-4 py-3 text-sm font-medium shadow-lg ${toast.tone === 'error' ? 'border-danger text-danger' : 'border-success text-success'}`}>
            {toast.text}
          </p>
        )}
      </div>
    </div>
  );
}
