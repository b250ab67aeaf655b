import { useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { createWebhook, deleteWebhook, readWebhooks } from '../../lib/api/webhook-calls.ts';
import type { WebhooksView, WebhookView } from '../../lib/api/webhooks.ts';
import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX, type WebhookEvent } from '../../lib/domain/organisation-events.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { DeliveryLog } from './DeliveryLog.tsx';
import { useManagedRead } from './use-managed-read.ts';

/** What a new webhook hears unless its maker chooses otherwise: the tournament's life and its results. */
const DEFAULT_EVENTS: readonly WebhookEvent[] = ['tournament.created', 'match.completed', 'tournament.finished'];

/**
 * An organisation's outgoing webhooks (issue 60), for its owner and admins: each address with the
 * events it hears and its latest deliveries, a form to add one (its signing secret shown once),
 * and deleting. Anyone else sees nothing here; the server decides every change again.
 */
export default function OrganisationWebhooks({ slug }: { slug: string }) {
  const { found, update } = useManagedRead<WebhooksView>(slug, (id) => readWebhooks(api, id));
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<readonly WebhookEvent[]>(DEFAULT_EVENTS);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);

  if (!found) return null;
  const { organisationId: id, value: view } = found;

  async function run(change: () => Promise<{ message: string; secret?: string }>) {
    setBusy(true);
    setNotice(null);
    try {
      const done = await change();
      update(await readWebhooks(api, id));
      setNotice({ tone: 'success', text: done.message });
      return done;
    } catch (caught) {
      setNotice({ tone: 'error', text: isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('webhooks.error')) });
      return null;
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setSecret(null);
    setCopied(false);
    void run(() => createWebhook(api, id, { url: url.trim(), events: [...events] })).then((done) => {
      if (!done?.secret) return;
      setSecret(done.secret);
      setUrl('');
    });
  }

  function toggle(event: WebhookEvent, on: boolean) {
    setEvents((now) => (on ? [...now, event] : now.filter((e) => e !== event)));
  }

  function remove(hook: WebhookView) {
    if (!window.confirm(t('webhooks.removeConfirm', { url: hook.url }))) return;
    setSecret(null);
    void run(() => deleteWebhook(api, id, hook._id));
  }

  async function copySecret(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the secret stays selectable for a manual copy.
    }
  }

  const full = view.webhooks.length >= view.limit;
  return (
    <section aria-labelledby="org-webhooks" className="card flex flex-col gap-4 p-4" data-webhooks>
      <div className="flex flex-col gap-1">
        <h2 id="org-webhooks" className="text-xl font-bold">
          {t('webhooks.title')}
        </h2>
        <p className="text-sm text-muted">{t('webhooks.intro')}</p>
        <p className="text-xs text-muted">{t('webhooks.count', { count: view.webhooks.length, limit: view.limit })}</p>
      </div>
      {view.webhooks.length === 0 ? (
        <p className="text-sm text-muted">{t('webhooks.none')}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {view.webhooks.map((hook) => (
            <li key={hook._id} className="flex flex-col gap-2 rounded-lg bg-surface-2 p-3" data-webhook={hook.url}>
              <div className="flex flex-wrap items-start gap-2">
                <code className="min-w-0 flex-1 text-sm break-all">{hook.url}</code>
                <button type="button" className="btn-ghost text-sm" disabled={busy} onClick={() => remove(hook)}>
                  {t('webhooks.remove')}
                </button>
              </div>
              <ul className="flex flex-wrap gap-1" aria-label={t('webhooks.events')}>
                {hook.events.map((event) => (
                  <li key={event} className="rounded-full border border-line px-2 py-0.5 font-mono text-xs">
                    {event}
                  </li>
                ))}
              </ul>
              {hook.broken && <Notice tone="error">{t('webhooks.broken')}</Notice>}
              {hook.log.length > 0 && (
                <details>
                  <summary className="cursor-pointer text-sm font-semibold">{t('webhooks.log')}</summary>
                  <div className="mt-2">
                    <DeliveryLog dense log={hook.log} event={(event) => <span className="font-mono text-xs">{event}</span>} />
                  </div>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
      {secret && (
        <div className="flex flex-col gap-2 rounded-lg border border-warning p-3" data-webhook-secret>
          <p className="text-sm font-semibold">{t('webhooks.secret')}</p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="min-w-0 flex-1 text-sm break-all select-all">{secret}</code>
            <button type="button" className="btn-ghost text-sm" onClick={() => void copySecret(secret)}>
              {copied ? t('webhooks.copied') : t('webhooks.copy')}
            </button>
          </div>
          <p className="text-xs text-muted">{t('webhooks.secretOnce')}</p>
        </div>
      )}
      {!full && (
        <form className="flex flex-col gap-3" onSubmit={onSubmit}>
          <Field
            id="org-webhook-url"
            label={t('webhooks.url')}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://example.com/kiberarena/webhook"
            required
            limit={WEBHOOK_URL_MAX}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 text-sm font-semibold">{t('webhooks.events')}</legend>
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={events.includes(event)} onChange={(e) => toggle(event, e.target.checked)} />
                {t(`webhooks.event.${event}`)}
              </label>
            ))}
          </fieldset>
          <button type="submit" className="btn-primary self-start" disabled={busy || events.length === 0}>
            {t('webhooks.add')}
          </button>
        </form>
      )}
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
    </section>
  );
}
