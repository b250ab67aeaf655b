import { useEffect, useRef, useState } from 'react';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { getNoticeSettings, saveNoticeSettings, type NoticeSettingsView } from '../../lib/api/notice-settings.ts';
import { getPushKey } from '../../lib/api/push-calls.ts';
import { getTelegramLink, type TelegramLinkView } from '../../lib/api/telegram-calls.ts';
import { NOTICE_CHANNELS, NOTICE_KINDS, type NoticeChannel, type NoticeKind, type NoticeSettings as Settings } from '../../lib/domain/match-day.ts';
import { useHydrated, useHydratedStore } from '../../lib/hooks/hydration.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $user } from '../../lib/stores/session.ts';
import { DevicePush } from './DevicePush.tsx';
import { canPush } from './device-push.ts';
import { TelegramLink } from './TelegramLink.tsx';

/** How long a saved or failed line stays (SPEC §9: status messages 3000 ms). */
const STATUS_MS = 3000;

type Loaded = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; view: NoticeSettingsView };

const channelTitle: Record<NoticeChannel, 'notices.settings.bell' | 'notices.settings.email' | 'notices.settings.push' | 'notices.settings.telegram'> = {
  bell: 'notices.settings.bell',
  email: 'notices.settings.email',
  push: 'notices.settings.push',
  telegram: 'notices.settings.telegram',
};

/** The channels only: the server refuses any other field (the view's `emailConfirmed`). */
const channelsOf = (settings: Required<Settings>): Required<Settings> => ({ bell: settings.bell, email: settings.email, push: settings.push, telegram: settings.telegram });

/** The settings with one kind turned on or off in one channel. */
function toggled(settings: Required<Settings>, channel: NoticeChannel, kind: NoticeKind, on: boolean): Required<Settings> {
  const off = settings[channel].filter((k) => k !== kind);
  return { ...channelsOf(settings), [channel]: on ? off : [...off, kind] };
}

/**
 * The cabinet's notification settings (issue 22): each match-day kind in the bell, by email and (issue
 * 60) on the reader's devices, a checkbox each, saved as soon as it changes. Saves go one after
 * another, so the server keeps the last choice; a failed save puts the boxes back as the server has
 * them. The devices' column and this device's switch (`DevicePush`) are shown only when the site
 * sends web push and this browser can take it; Telegram's (`TelegramLink`) when the site has a bot,
 * its column once the reader linked their chat.
 */
export default function NoticeSettings() {
  const user = useHydratedStore($user, null);
  const hydrated = useHydrated();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [status, setStatus] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  // What the server holds after the last save that succeeded: a failed one goes back to it.
  const saved = useRef<Required<Settings>>({ bell: [], email: [], push: [], telegram: [] });
  // The site's VAPID key when the site has push and this browser can take it: the push controls are shown only then.
  const [pushKey, setPushKey] = useState<string | null>(null);
  // The reader's Telegram when the site has a bot (a 404 otherwise): its controls and column are shown only then.
  const [telegram, setTelegram] = useState<TelegramLinkView | null>(null);

  const userId = user?._id;
  useEffect(() => {
    if (!userId) return;
    getNoticeSettings(api).then(
      (view) => {
        saved.current = channelsOf(view);
        setLoaded({ kind: 'ready', view });
      },
      (error: unknown) => setLoaded({ kind: 'error', message: errorMessage(error, t('notices.settings.loadError')) }),
    );
    // Without an answer the push controls stay hidden: the rest of the settings work as before.
    getPushKey(api).then(
      (key) => setPushKey(key.enabled && key.publicKey && canPush() ? key.publicKey : null),
      () => setPushKey(null),
    );
    getTelegramLink(api).then(
      (view) => setTelegram(view.enabled ? view : null),
      () => setTelegram(null),
    );
  }, [userId]);

  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(null), STATUS_MS);
    return () => clearTimeout(timer);
  }, [status]);

  // The server's (and hydration's) render is the section with its loading line: `client:visible` needs something to watch.
  if (hydrated && !user) return null;

  const channels = NOTICE_CHANNELS.filter((channel) => (channel === 'push' ? pushKey : channel === 'telegram' ? telegram?.linked : true));
  // Three columns of boxes leave a phone's 360 px too little for the kinds: narrower ones, smaller headings.
  const narrow = channels.length > 2;

  function change(view: NoticeSettingsView, channel: NoticeChannel, kind: NoticeKind, on: boolean) {
    const next = toggled(view, channel, kind, on);
    setLoaded({ kind: 'ready', view: { ...view, ...next } });
    queue.current = queue.current.then(async () => {
      try {
        const result = await saveNoticeSettings(api, next);
        saved.current = { bell: result.settings.bell ?? [], email: result.settings.email ?? [], push: result.settings.push ?? [], telegram: result.settings.telegram ?? [] };
        setStatus({ tone: 'success', text: result.message });
      } catch (error) {
        setLoaded((now) => (now.kind === 'ready' ? { kind: 'ready', view: { ...now.view, ...saved.current } } : now));
        setStatus({ tone: 'error', text: t('notices.settings.error', { message: errorMessage(error, t('notices.settings.noAnswer')) }) });
      }
    });
  }

  return (
    <section className="card flex flex-col gap-3" aria-labelledby="notice-settings">
      <h2 id="notice-settings" className="text-lg font-bold">
        {t('notices.settings.title')}
      </h2>
      <p className="text-sm text-muted">
        {t(telegram?.linked ? (pushKey ? 'telegram.settingsIntroPush' : 'telegram.settingsIntro') : pushKey ? 'notices.settings.introPush' : 'notices.settings.intro')}
      </p>
      {pushKey && <DevicePush publicKey={pushKey} />}
      {telegram && <TelegramLink view={telegram} onChange={setTelegram} />}
      {loaded.kind === 'loading' && <p className="text-muted">{t('notices.settings.loading')}</p>}
      {loaded.kind === 'error' && <Notice tone="error">{loaded.message}</Notice>}
      {loaded.kind === 'ready' && (
        <>
          {!loaded.view.emailConfirmed && (
            <p className="rounded-lg border border-warning px-3 py-2 text-sm text-warning">{t('notices.settings.unconfirmed')}</p>
          )}
          <table className="w-full text-sm">
            <thead>
              <tr className="text-muted">
                <th scope="col" className="py-2 pr-2 text-left font-semibold">
                  {t('notices.settings.kind')}
                </th>
                {channels.map((channel) => (
                  <th key={channel} scope="col" className={`${narrow ? 'w-16 px-0.5 text-xs sm:text-sm' : 'w-20 px-1'} py-2 text-center font-semibold sm:w-32 sm:px-1`}>
                    {t(channelTitle[channel])}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {NOTICE_KINDS.map((kind) => (
                <tr key={kind} className="border-t border-line">
                  <th scope="row" className="py-1 pr-2 text-left font-normal">
                    {t(`notices.kind.${kind}`)}
                  </th>
                  {channels.map((channel) => (
                    <td key={channel} className={`${narrow ? 'px-0.5' : 'px-1'} text-center sm:px-1`}>
                      <label className="inline-flex size-10 cursor-pointer items-center justify-center rounded-lg hover:bg-surface-2">
                        <input
                          type="checkbox"
                          className="size-4 accent-primary"
                          checked={!loaded.view[channel].includes(kind)}
                          onChange={(event) => change(loaded.view, channel, kind, event.target.checked)}
                        />
                        <span className="sr-only">{t('notices.settings.toggle', { kind: t(`notices.kind.${kind}`), channel: t(channelTitle[channel]) })}</span>
                      </label>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {status && <Notice tone={status.tone}>{status.text}</Notice>}
    </section>
  );
}
