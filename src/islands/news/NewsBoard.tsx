import { useStore } from '@nanostores/react';
import { useEffect, useState, useSyncExternalStore, type MouseEvent, type ReactNode } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { createNews, deleteNews, listNews, listSavedNews, saveNews, unsaveNews, updateNews, type NewsItem } from '../../lib/api/news.ts';
import { t, type MessageKey } from '../../lib/i18n/index.ts';
import { $sessionLoading, $user, api } from '../../lib/stores/session.ts';
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

const noSubscription = () => () => {};

type Toast = { tone: 'success' | 'error'; text: string };

/**
 * The News page (SPEC §2): menu All news / Saved / Archive / Add news, cards that open on click,
 * Save and Remove from saved for players, Edit and Delete for admins. Rendered on the server
 * with the news it is given; the menu items are links, so without JavaScript All and Archive
 * still work and every card still opens.
 */
export default function NewsBoard({ items: initialItems, view: initialView }: { items: NewsItem[]; view: NewsView }) {
  // The server renders for a guest; hydration must match that even when the session is already known.
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const storedUser = useStore($user);
  const storedLoading = useStore($sessionLoading);
  const user = hydrated ? storedUser : null;
  const sessionLoading = hydrated ? storedLoading : true;
  const isAdmin = user?.role === 'admin';
  const canSave = Boolean(user) && !isAdmin;

  const [items, setItems] = useState(initialItems);
  const [view, setView] = useState<NewsView>(initialView);
  const [savedIds, setSavedIds] = useState<Set<string> | null>(null);
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [toast, setToast] = useState<Toast | null>(null);

  // A signed-in reader gets the newest list (the page may come from a cache) and, unless admin, their saved ids.
  const userId = user?._id;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    listNews(api)
      .then((fresh) => live && setItems(fresh))
      .catch((error: unknown) => console.error('[news] list', error));
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
      setSavedIds((current) => {
        const copy = new Set(current);
        if (saved) copy.delete(item._id);
        else copy.add(item._id);
        return copy;
      });
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
      setItems((current) => current.filter((n) => n._id !== item._id));
      setToast({ tone: 'success', text: t('news.deleted') });
    } catch (error) {
      setToast({ tone: 'error', text: errorMessage(error, t('news.deleteError')) });
    } finally {
      busy(item._id, false);
    }
  }

  async function add(body: Parameters<typeof createNews>[1]) {
    const created = await createNews(api, body);
    setItems((current) => [created, ...current]);
    go(created.archived ? 'archive' : 'all');
    setToast({ tone: 'success', text: t('news.added') });
  }

  async function edit(id: string, body: Parameters<typeof updateNews>[2]) {
    const updated = await updateNews(api, id, body);
    setItems((current) => current.map((n) => (n._id === id ? updated : n)));
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

  function list(shown: NewsItem[], empty: MessageKey) {
    if (shown.length === 0) return <p className="text-muted">{t(empty)}</p>;
    return (
      <ul className="flex flex-col gap-4">
        {shown.map((item, index) => (
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
    );
  }

  function body(): ReactNode {
    switch (view) {
      case 'all':
        return list(
          items.filter((n) => !n.archived),
          'news.empty',
        );
      case 'archive':
        return list(
          items.filter((n) => n.archived),
          'news.emptyArchive',
        );
      case 'saved':
        if (sessionLoading || (canSave && !savedIds)) return <Notice>{t('news.checking')}</Notice>;
        if (!canSave) {
          return (
            <p className="text-muted">
              {t('news.savedSignIn')} <a href="/login">{t('news.signIn')}</a>
            </p>
          );
        }
        return list(
          items.filter((n) => savedIds?.has(n._id)),
          'news.emptySaved',
        );
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
