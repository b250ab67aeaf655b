import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { getTelegramLink, makeTelegramLink, unlinkTelegram, type TelegramLinkView } from '../../lib/api/telegram-calls.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';

/** How often the cabinet asks whether the bot linked the chat while a link is open. */
const POLL_MS = 3000;

/**
 * The cabinet's Telegram (issue 60, decision 043): shown only when the site has a bot. Not linked:
 * «Під’єднати Telegram» makes a one-time link to the bot, and the cabinet watches for the bot to
 * link the chat (or the reader presses «Перевірити»). Linked: the Telegram name and «Від’єднати».
 */
export function TelegramLink({ view, onChange }: { view: TelegramLinkView; onChange: (view: TelegramLinkView) => void }) {
  const [link, setLink] = useState<{ url: string; expiresAt: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // While a link is open, ask now and then whether the bot has linked the chat.
  useEffect(() => {
    if (!link || view.linked) return;
    const timer = setInterval(() => {
      if (Date.now() > link.expiresAt) {
        setLink(null);
        return;
      }
      getTelegramLink(api).then(
        (next) => {
          if (next.linked) {
            setLink(null);
            onChange(next);
          }
        },
        () => {},
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [link, view.linked, onChange]);

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(t('telegram.error', { message: errorMessage(failure, t('notices.settings.noAnswer')) }));
    } finally {
      setBusy(false);
    }
  }

  const connect = () =>
    run(async () => {
      const made = await makeTelegramLink(api);
      setLink({ url: made.url, expiresAt: Date.parse(made.expiresAt) });
    });
  const check = () =>
    run(async () => {
      const next = await getTelegramLink(api);
      if (next.linked) setLink(null);
      onChange(next);
    });
  const disconnect = () =>
    run(async () => {
      await unlinkTelegram(api);
      onChange({ ...view, linked: null });
    });

  return (
    <div className="flex flex-col gap-2 rounded-lg border border-line p-3" data-telegram-link>
      <span className="font-semibold">{t('telegram.title')}</span>
      {view.linked ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="text-sm" data-telegram-linked>
            {t('telegram.linked', { name: view.linked.username })}
          </span>
          <button type="button" className="btn-ghost" disabled={busy} onClick={() => void disconnect()}>
            {t('telegram.disconnect')}
          </button>
        </div>
      ) : (
        <>
          <span className="text-sm text-muted">{t('telegram.intro')}</span>
          {link ? (
            <div className="flex flex-col gap-2">
              <span className="text-sm">{t('telegram.linkHint')}</span>
              <div className="flex flex-wrap gap-2">
                <a className="btn-primary" href={link.url} target="_blank" rel="noopener noreferrer" data-telegram-url>
                  {t('telegram.openLink')}
                </a>
                <button type="button" className="btn-ghost" disabled={busy} onClick={() => void check()}>
                  {t('telegram.refresh')}
                </button>
              </div>
            </div>
          ) : (
            <button type="button" className="btn-primary self-start" disabled={busy} onClick={() => void connect()}>
              {t('telegram.connect')}
            </button>
          )}
        </>
      )}
      {error && <Notice tone="error">{error}</Notice>}
    </div>
  );
}
