import { useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { readIntegrations, removeDiscord, saveDiscord } from '../../lib/api/integration-calls.ts';
import type { IntegrationsView } from '../../lib/api/integrations.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { ChannelLog } from './DeliveryLog.tsx';
import { useManagedRead } from './use-managed-read.ts';

/**
 * An organisation's Discord channel (issue 60), for its owner and admins: the webhook's address
 * (shown cut short once saved), and what was posted there lately. Anyone else sees nothing here;
 * the server decides every change again.
 */
export default function OrganisationDiscord({ slug }: { slug: string }) {
  const { found, update } = useManagedRead<IntegrationsView>(slug, (id) => readIntegrations(api, id));
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);

  if (!found) return null;
  const { organisationId: id, value: view } = found;

  async function run(change: () => Promise<{ message: string; integrations: IntegrationsView }>) {
    setBusy(true);
    setNotice(null);
    try {
      const saved = await change();
      update(saved.integrations);
      setUrl('');
      setNotice({ tone: 'success', text: saved.message });
    } catch (caught) {
      setNotice({ tone: 'error', text: isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('integrations.error')) });
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(() => saveDiscord(api, id, url.trim()));
  }

  const { discord, log } = view;
  return (
    <section aria-labelledby="org-discord" className="card flex flex-col gap-4 p-4" data-discord>
      <div className="flex flex-col gap-1">
        <h2 id="org-discord" className="text-xl font-bold">
          {t('integrations.discord.title')}
        </h2>
        <p className="text-sm text-muted">{t('integrations.discord.intro')}</p>
      </div>
      {discord ? (
        discord.broken ? (
          <Notice tone="error">{t('integrations.discord.broken')}</Notice>
        ) : (
          <p className="text-sm break-all">{t('integrations.discord.connected', { url: discord.url })}</p>
        )
      ) : (
        <p className="text-sm text-muted">{t('integrations.discord.none')}</p>
      )}
      <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={onSubmit}>
        <Field
          id="org-discord-url"
          label={t('integrations.discord.url')}
          wrapperClassName="min-w-0 flex-1"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://discord.com/api/webhooks/…"
          required
          limit={300}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <button type="submit" className="btn-primary" disabled={busy}>
          {t('integrations.discord.save')}
        </button>
      </form>
      {discord && (
        <button type="button" className="btn-ghost self-start" disabled={busy} onClick={() => void run(() => removeDiscord(api, id))}>
          {t('integrations.discord.remove')}
        </button>
      )}
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      {discord && <ChannelLog log={log} />}
    </section>
  );
}
