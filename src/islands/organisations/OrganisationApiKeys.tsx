import { useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { createApiKey, readApiKeys, revokeApiKey } from '../../lib/api/api-key-calls.ts';
import type { ApiKeyList, ApiKeyView } from '../../lib/api/api-keys.ts';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { API_KEY_NAME_MAX, API_KEY_SCOPES, type ApiKeyScope } from '../../lib/domain/api-keys.ts';
import { formatDateTime } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { useManagedRead } from './use-managed-read.ts';

/**
 * An organisation's API keys (issue 60, decision 045), for its owner and admins: the list (live
 * first, revoked ones marked), a form for a new key whose secret is shown once with a copy button,
 * and revoking with a confirmation. Anyone else sees nothing here; the server decides again.
 */
export default function OrganisationApiKeys({ slug }: { slug: string }) {
  const { found, update } = useManagedRead<ApiKeyList>(slug, (id) => readApiKeys(api, id));
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);

  if (!found) return null;
  const { organisationId: id, value: list } = found;

  async function act(change: () => Promise<string>) {
    setBusy(true);
    setNotice(null);
    try {
      const message = await change();
      update(await readApiKeys(api, id));
      setNotice({ tone: 'success', text: message });
    } catch (caught) {
      setNotice({ tone: 'error', text: isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('error.server')) });
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void act(async () => {
      const made = await createApiKey(api, id, name.trim(), scope);
      setSecret({ name: made.key.name, value: made.secret });
      setCopied(false);
      setName('');
      return made.message;
    });
  }

  async function copy(value: string) {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the key is selected for a manual copy.
      (document.getElementById('org-api-key-secret') as HTMLInputElement | null)?.select();
    }
  }

  const revoke = (key: ApiKeyView) =>
    act(async () => {
      setConfirming(null);
      return (await revokeApiKey(api, id, key._id)).message;
    });

  const live = list.keys.filter((k) => k.revokedAt === null).length;
  return (
    <section aria-labelledby="org-api-keys" className="card flex flex-col gap-4 p-4" data-api-keys>
      <div className="flex flex-col gap-1">
        <h2 id="org-api-keys" className="text-xl font-bold">
          {t('apiKeys.title')}
        </h2>
        <p className="text-sm text-muted">{t('apiKeys.intro')}</p>
      </div>
      <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={onSubmit}>
        <Field
          id="org-api-key-name"
          label={t('apiKeys.name')}
          wrapperClassName="min-w-0 flex-1"
          autoComplete="off"
          required
          limit={API_KEY_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <div className="flex flex-col gap-1 text-sm font-medium">
          <span className="flex items-baseline gap-2">
            <label htmlFor="org-api-key-scope">{t('apiKeys.scope')}</label>
          </span>
          <select id="org-api-key-scope" className="field" value={scope} onChange={(e) => setScope(e.target.value as ApiKeyScope)}>
            {API_KEY_SCOPES.map((s) => (
              <option key={s} value={s}>
                {t(`apiKeys.scope.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary" disabled={busy || live >= list.max}>
          {t('apiKeys.create')}
        </button>
      </form>
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      {secret && (
        <div className="flex flex-col gap-2 rounded-lg border border-warning p-3" data-api-key-secret>
          <p className="text-sm font-semibold text-warning" role="note">
            {t('apiKeys.secretOnce')}
          </p>
          <label htmlFor="org-api-key-secret" className="text-sm font-semibold">
            {t('apiKeys.secretLabel')} «{secret.name}»
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              id="org-api-key-secret"
              className="field min-w-0 flex-1 font-mono text-sm"
              readOnly
              value={secret.value}
              onFocus={(e) => e.target.select()}
            />
            <button type="button" className="btn-primary" onClick={() => void copy(secret.value)}>
              {copied ? t('apiKeys.copied') : t('apiKeys.copy')}
            </button>
          </div>
          <button type="button" className="btn-ghost self-start" onClick={() => setSecret(null)}>
            {t('apiKeys.hideSecret')}
          </button>
        </div>
      )}
      <p className="text-sm text-muted">{t('apiKeys.live', { count: live, max: list.max })}</p>
      {list.keys.length === 0 ? (
        <p className="text-sm text-muted">{t('apiKeys.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2 text-sm">
          {list.keys.map((key) => (
            <li
              key={key._id}
              className={`flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-surface-2 px-3 py-2 ${key.revokedAt ? 'opacity-70' : ''}`}
              data-api-key={key.name}
            >
              <span className="font-semibold break-all">{key.name}</span>
              <code className="text-xs text-muted">{key.prefix}…</code>
              <span className="rounded-full border border-line px-2 py-0.5 text-xs">{t(`apiKeys.scope.${key.scope}`)}</span>
              {!key.revokedAt &&
                (confirming === key._id ? (
                  <div className="order-last flex w-full flex-col gap-2" role="group" aria-label={t('apiKeys.revoke')}>
                    <p>{t('apiKeys.revokeConfirm', { name: key.name })}</p>
                    <div className="flex flex-wrap gap-2">
                      <button type="button" className="btn-ghost border-danger text-danger" disabled={busy} onClick={() => void revoke(key)}>
                        {t('apiKeys.revokeYes')}
                      </button>
                      <button type="button" className="btn-ghost" onClick={() => setConfirming(null)}>
                        {t('apiKeys.cancel')}
                      </button>
                    </div>
                  </div>
                ) : (
                  <button type="button" className="btn-ghost ml-auto" disabled={busy} onClick={() => setConfirming(key._id)}>
                    {t('apiKeys.revoke')}
                  </button>
                ))}
              <span className="w-full text-xs text-muted">
                {t('apiKeys.createdAt', { date: formatDateTime(key.createdAt, { month: 'short' }), who: key.createdBy })}
                {' · '}
                {key.lastUsedAt ? t('apiKeys.lastUsed', { date: formatDateTime(key.lastUsedAt, { month: 'short' }) }) : t('apiKeys.neverUsed')}
                {key.revokedAt && ` · ${t('apiKeys.revokedAt', { date: formatDateTime(key.revokedAt, { month: 'short' }) })}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
