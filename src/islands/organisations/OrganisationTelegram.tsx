import { useEffect, useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { readIntegrations } from '../../lib/api/integration-calls.ts';
import { getOrganisation } from '../../lib/api/organisations.ts';
import { removeTelegramChannel, saveTelegramChannel, type TelegramIntegrationView } from '../../lib/api/telegram-calls.ts';
import { organisationPowers } from '../../lib/domain/organisation.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';

/**
 * An organisation's Telegram channel (issue 60, decision 043), for its owner and admins, shown only
 * when the site has a bot: the channel where the bot announces new tournaments and champions. The
 * server checks with Telegram that the bot may post there before saving it.
 */
export default function OrganisationTelegram({ slug }: { slug: string }) {
  const user = useHydratedStore($user, null);
  const loading = useHydratedStore($sessionLoading, true);
  const [organisationId, setOrganisationId] = useState<string | null>(null);
  const [view, setView] = useState<TelegramIntegrationView | null>(null);
  const [chat, setChat] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);

  useEffect(() => {
    if (!user) return;
    let stale = false;
    void (async () => {
      try {
        const found = await getOrganisation(api, slug);
        if (found.suspended !== null || !organisationPowers(found.viewer?.role ?? null).manage) return;
        const read = (await readIntegrations(api, found._id)) as { telegram?: TelegramIntegrationView };
        if (stale || !read.telegram) return;
        setOrganisationId(found._id);
        setView(read.telegram);
      } catch {
        // Without an answer the section stays hidden; Discord's says what went wrong.
      }
    })();
    return () => {
      stale = true;
    };
  }, [user, slug]);

  if (loading || !user || !view || !organisationId) return null;
  const id = organisationId;

  async function run(change: () => Promise<{ message: string; telegram: TelegramIntegrationView }>) {
    setBusy(true);
    setNotice(null);
    try {
      const saved = await change();
      setView(saved.telegram);
      setChat('');
      setNotice({ tone: 'success', text: saved.message });
    } catch (caught) {
      setNotice({ tone: 'error', text: isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('integrations.error')) });
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(() => saveTelegramChannel(api, id, chat.trim()));
  }

  const { channel } = view;
  return (
    <section aria-labelledby="org-telegram" className="card flex flex-col gap-4 p-4" data-telegram-channel>
      <div className="flex flex-col gap-1">
        <h2 id="org-telegram" className="text-xl font-bold">
          {t('telegram.channel.title')}
        </h2>
        <p className="text-sm text-muted">{t('telegram.channel.intro', { bot: view.bot ?? '…' })}</p>
      </div>
      {channel ? (
        channel.broken ? (
          <Notice tone="error">{t('telegram.channel.broken')}</Notice>
        ) : (
          <p className="text-sm break-all">{t('telegram.channel.connected', { name: channel.chat })}</p>
        )
      ) : (
        <p className="text-sm text-muted">{t('telegram.channel.none')}</p>
      )}
      <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={onSubmit}>
        <Field
          id="org-telegram-chat"
          label={t('telegram.channel.chat')}
          wrapperClassName="min-w-0 flex-1"
          autoComplete="off"
          spellCheck={false}
          placeholder="@kiberarena_news"
          required
          limit={40}
          value={chat}
          onChange={(e) => setChat(e.target.value)}
        />
        <button type="submit" className="btn-primary" disabled={busy}>
          {t('telegram.channel.save')}
        </button>
      </form>
      {channel && (
        <button type="button" className="btn-ghost self-start" disabled={busy} onClick={() => void run(() => removeTelegramChannel(api, id))}>
          {t('telegram.channel.remove')}
        </button>
      )}
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
    </section>
  );
}
