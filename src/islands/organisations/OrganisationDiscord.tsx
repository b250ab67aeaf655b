import { useEffect, useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { readIntegrations, removeDiscord, saveDiscord } from '../../lib/api/integration-calls.ts';
import type { IntegrationsView } from '../../lib/api/integrations.ts';
import { getOrganisation } from '../../lib/api/organisations.ts';
import { organisationPowers } from '../../lib/domain/organisation.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { formatDateTime } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';

const STATE_TONE: Record<IntegrationsView['log'][number]['state'], string> = {
  pending: 'border-warning text-warning',
  sent: 'border-success text-success',
  failed: 'border-danger text-danger',
};

/**
 * An organisation's Discord channel (issue 60), for its owner and admins: the webhook's address
 * (shown cut short once saved), and what was posted there lately. Anyone else sees nothing here;
 * the server decides every change again.
 */
export default function OrganisationDiscord({ slug }: { slug: string }) {
  const user = useHydratedStore($user, null);
  const loading = useHydratedStore($sessionLoading, true);
  const [organisationId, setOrganisationId] = useState<string | null>(null);
  const [view, setView] = useState<IntegrationsView | null>(null);
  const [hidden, setHidden] = useState(false);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);

  useEffect(() => {
    if (!user) return;
    let stale = false;
    void (async () => {
      try {
        const found = await getOrganisation(api, slug);
        if (found.suspended !== null || !organisationPowers(found.viewer?.role ?? null).manage) {
          if (!stale) setHidden(true);
          return;
        }
        const read = await readIntegrations(api, found._id);
        if (stale) return;
        setOrganisationId(found._id);
        setView(read);
      } catch {
        if (!stale) setHidden(true);
      }
    })();
    return () => {
      stale = true;
    };
  }, [user, slug]);

  if (loading || !user || hidden || !view || !organisationId) return null;
  const id = organisationId;

  async function run(change: () => Promise<{ message: string; integrations: IntegrationsView }>) {
    setBusy(true);
    setNotice(null);
    try {
      const saved = await change();
      setView(saved.integrations);
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
      {discord && (
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold">{t('integrations.log.title')}</h3>
          {log.length === 0 ? (
            <p className="text-sm text-muted">{t('integrations.log.empty')}</p>
          ) : (
            <ul className="flex flex-col gap-2 text-sm">
              {log.map((delivery) => (
                <li key={delivery._id} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-surface-2 px-3 py-2">
                  <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${STATE_TONE[delivery.state]}`}>
                    {t(`integrations.log.state.${delivery.state}`)}
                  </span>
                  <span className="font-semibold">{t(`integrations.log.event.${delivery.event}`)}</span>
                  <span className="min-w-0 truncate">{delivery.tournament}</span>
                  <time className="ml-auto text-muted" dateTime={delivery.sentAt ?? delivery.createdAt}>
                    {formatDateTime(delivery.sentAt ?? delivery.createdAt, { month: 'short' })}
                  </time>
                  {delivery.state !== 'sent' && delivery.attempts > 0 && (
                    <span className="w-full text-xs text-muted">
                      {t('integrations.log.attempts', { count: delivery.attempts })}
                      {delivery.lastStatus ? ` · HTTP ${delivery.lastStatus}` : ''}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
