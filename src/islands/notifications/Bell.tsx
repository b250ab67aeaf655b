import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { useEffect, useRef, useState } from 'react';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import {
  acceptTournamentInvite,
  getNotifications,
  markAllNotificationsRead,
  rejectTournamentInvite,
  type Notification,
  type NotificationAction,
} from '../../lib/api/notifications.ts';
import { notificationCall } from '../../lib/domain/notification-action.ts';
import { formatDateTime } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/notifications.ts';
import { api } from '../../lib/stores/api.ts';
import { loadSession } from '../../lib/stores/session.ts';
import { watchUser } from '../../lib/live/user-events.ts';

/** How often the bell looks for new notifications while the page is open. */
const REFRESH_MS = 30_000;

/** The signed-in user's newest notifications, as the bell last saw them. */
const $notifications = atom<Notification[]>([]);

async function refreshNotifications(): Promise<void> {
  try {
    $notifications.set(await getNotifications(api));
  } catch {
    // The bell stays as it was; the next refresh tries again.
  }
}


const actionLabel = (action: NotificationAction) =>
  action.type === 'accept' ? t('notifications.accept') : action.type === 'reject' ? t('notifications.reject') : action.label;

/** Carries out one action button; resolves to the server's message (in the reader's language) to show. */
async function perform(notification: Notification, action: NotificationAction): Promise<string | null> {
  const call = notificationCall(notification, action);
  if (!call) return null;
  if (call.kind === 'team') {
    // Loaded on demand: teams.ts brings the whole catalog (its forms' texts), which the bell on every page does not need.
    const { acceptTeamInvite, rejectTeamInvite } = await import('../../lib/api/teams.ts');
    return (await (call.verb === 'accept' ? acceptTeamInvite : rejectTeamInvite)(api, call.teamId)).message;
  }
  return (await (call.verb === 'accept' ? acceptTournamentInvite : rejectTournamentInvite)(api, call.applicationId)).message;
}

function BellIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

/**
 * The signed-in user's bell (SPEC §2 Notification bell): a red dot while anything is unread, a list
 * with text, date and action buttons, and 'mark all as read'.
 */
export default function Bell() {
  const items = useStore($notifications);
  const [open, setOpen] = useState(false);
  const [markingAll, setMarkingAll] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  // Set once the first list has come (or failed): the page's readiness, which tests wait for.
  const [loaded, setLoaded] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    void refreshNotifications().then(() => setLoaded(true));
    const timer = window.setInterval(() => {
      if (!document.hidden) void refreshNotifications();
    }, REFRESH_MS);
    // A stored notification rings at once (issue 22); the 30 s refresh stays for when the stream is down.
    const stopLive = watchUser((event) => {
      if (event.kind !== 'team') void refreshNotifications();
    }, { pollMs: null });
    return () => {
      window.clearInterval(timer);
      stopLive();
      $notifications.set([]);
    };
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const unread = items.filter((n) => !n.read).length;

  function toggle() {
    setNotice(null);
    if (!open) void refreshNotifications();
    setOpen(!open);
  }

  async function markAll() {
    setMarkingAll(true);
    setNotice(null);
    try {
      await markAllNotificationsRead(api);
      $notifications.set($notifications.get().map((n) => ({ ...n, read: true })));
    } catch {
      setNotice({ tone: 'error', text: t('notifications.markAllError') });
    } finally {
      setMarkingAll(false);
    }
  }

  async function act(notification: Notification, action: NotificationAction) {
    setNotice(null);
    if (!notificationCall(notification, action)) {
      setNotice({ tone: 'error', text: t('notifications.unknownAction') });
      return;
    }
    setBusyId(notification._id);
    try {
      const message = await perform(notification, action);
      // Answering an invite drops its notification on the server (SPEC §3 Notification), in the same
      // transaction: a DELETE of it afterwards would only meet a 404.
      $notifications.set($notifications.get().filter((n) => n._id !== notification._id));
      setNotice({ tone: 'success', text: message ?? '' });
      // Team lists (the team tab, the cabinet) follow the user's teams.
      void loadSession();
    } catch (caught) {
      const reason = isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('error.server'));
      setNotice({ tone: 'error', text: t('notifications.actionError', { message: reason }) });
      void refreshNotifications();
    } finally {
      setBusyId(null);
    }
  }

  return (
    <div ref={root} className="relative" data-loaded={loaded ? 'true' : 'false'}>
      <button
        ref={button}
        type="button"
        className={`btn-ghost relative px-2 ${unread > 0 ? 'border-accent text-accent' : ''}`}
        aria-label={unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell')}
        aria-expanded={open}
        aria-controls="notification-panel"
        onClick={toggle}
      >
        <BellIcon />
        {unread > 0 && <span data-testid="bell-dot" className="absolute -right-1 -top-1 size-3 rounded-full border-2 border-surface bg-danger" aria-hidden="true" />}
      </button>
      {open && (
        <section
          id="notification-panel"
          aria-label={t('notifications.title')}
          className="card fixed inset-x-3 top-14 z-50 flex max-h-[70dvh] flex-col gap-3 overflow-hidden p-0 shadow-2xl md:absolute md:inset-x-auto md:right-0 md:top-full md:mt-2 md:w-96"
        >
          <header className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-4 pb-3 pt-4">
            <h2 className="text-base font-bold">{t('notifications.title')}</h2>
            <button type="button" className="btn-ghost px-3 py-1 text-xs" onClick={markAll} disabled={markingAll || unread === 0}>
              {markingAll ? t('notifications.processing') : t('notifications.markAll')}
            </button>
          </header>
          {notice && notice.text && (
            <div className="px-4">
              <Notice tone={notice.tone}>{notice.text}</Notice>
            </div>
          )}
          {items.length === 0 ? (
            <p className="px-4 pb-4 text-sm text-muted">{t('notifications.empty')}</p>
          ) : (
            <ul className="flex flex-col overflow-y-auto px-2 pb-2">
              {items.map((n) => (
                <li key={n._id} className={`flex flex-col gap-2 rounded-lg px-3 py-3 ${n.read ? '' : 'bg-surface-2'}`}>
                  <p className="flex items-start gap-2 text-sm">
                    {!n.read && (
                      <span className="mt-1.5 size-2 shrink-0 rounded-full bg-danger" role="img" aria-label={t('notifications.unread')} />
                    )}
                    {/* A match-day notice leads to the page it is about; only site paths, never another host. */}
                    {n.link?.startsWith('/') && !n.link.startsWith('//') ? (
                      <a href={n.link} className="break-words text-fg underline-offset-2 hover:underline">
                        {n.text}
                      </a>
                    ) : (
                      <span className="break-words">{n.text}</span>
                    )}
                  </p>
                  <time className="text-xs text-muted" dateTime={n.date}>
                    {formatDateTime(n.date, { month: 'short' })}
                  </time>
                  {n.actions.length > 0 && (
                    <div className="flex flex-wrap gap-2">
                      {n.actions.map((action) => (
                        <button
                          key={action.type}
                          type="button"
                          className={`${action.type === 'accept' ? 'btn-primary' : 'btn-ghost'} px-3 py-1 text-xs`}
                          disabled={busyId !== null}
                          onClick={() => act(n, action)}
                        >
                          {actionLabel(action)}
                        </button>
                      ))}
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
