import { useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { readIntegrations } from '../../lib/api/integration-calls.ts';
import { removeTelegramChannel, saveTelegramChannel, type TelegramIntegrationView } from '../../lib/api/telegram-calls.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { ChannelLog } from './DeliveryLog.tsx';
import { useManagedRead } from './use-managed-read.ts';

/**
 * An organisation's Telegram channel (issue 60, decision 043), for its owner and admins, shown only
 * when the site has a bot: the channel where the bot announces new tournaments and champions. The
 * server checks with Telegram that the bot may post there before saving it.
 */
export default function OrganisationTelegram({ slug }: { slug: string }) {
  // Its section shows only when the site has a bot: the integrations then carry its channel.
  const { found, update } = useManagedRead<TelegramIntegrationView>(
    slug,
    async (id) => ((await readIntegrations(api, id)) as { telegram?: TelegramIntegrationView }).telegram,
  );
  const [chat, setChat] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);

  if (!found) return null;
  const { organisationId: id, value: view } = found;

  async function run(change: () => Promise<{ message: string; telegram: TelegramIntegrationView }>) {
    setBusy(true);
    setNotice(null);
    try {
      const saved = await change();
      update(saved.telegram);
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
      {channel && <ChannelLog log={channel.log} />}
    </section>
  );
}
