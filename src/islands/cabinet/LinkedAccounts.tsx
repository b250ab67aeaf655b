import { useEffect, useState } from 'react';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { getMyLinks, startLinking, unlinkAccount, type MyLinksView } from '../../lib/api/linked-account-calls.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { isSignInFailure, isSignInProvider, SIGN_IN_PROVIDERS, type SignInProvider } from '../../lib/domain/linked-accounts.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $user } from '../../lib/stores/session.ts';

type Status = { tone: NoticeTone; text: string } | null;

const nameOf = (provider: SignInProvider) => t(`linked.provider.${provider}`);

/** What a link that came back from a provider says in the address: linked, or why not. */
function returned(): Status {
  if (typeof window === 'undefined') return null;
  const query = new URLSearchParams(window.location.search);
  const linked = query.get('linked');
  const failure = query.get('oauthError');
  if (linked && isSignInProvider(linked)) return { tone: 'success', text: t('linked.linkedNow', { provider: nameOf(linked) }) };
  if (failure && isSignInFailure(failure)) return { tone: 'error', text: t(`linked.failed.${failure}`) };
  return null;
}

/**
 * «Ігрові акаунти» in the cabinet (issue 60, decision 044): the Discord and Steam accounts linked,
 * each with a way to unlink it, and a button to link each provider the site has turned on. Linking
 * asks the server for the provider's address (bound to this user and this browser) and goes there.
 * Nothing shows when no provider is on and nothing is linked.
 */
export default function LinkedAccounts() {
  const user = useHydratedStore($user, null);
  const [mine, setMine] = useState<MyLinksView | null>(null);
  const [status, setStatus] = useState<Status>(returned);
  const [busy, setBusy] = useState<SignInProvider | null>(null);

  useEffect(() => {
    if (!user) return;
    let stale = false;
    getMyLinks(api).then(
      (found) => !stale && setMine(found),
      (caught: unknown) => !stale && setStatus({ tone: 'error', text: t('linked.error', { message: errorMessage(caught, '') }) }),
    );
    return () => {
      stale = true;
    };
  }, [user]);

  async function link(provider: SignInProvider) {
    setBusy(provider);
    setStatus(null);
    try {
      const { url } = await startLinking(api, provider);
      window.location.assign(url);
    } catch (caught) {
      setStatus({ tone: 'error', text: t('linked.error', { message: errorMessage(caught, '') }) });
      setBusy(null);
    }
  }

  async function unlink(provider: SignInProvider) {
    setBusy(provider);
    setStatus(null);
    try {
      const done = await unlinkAccount(api, provider);
      setMine((before) => (before ? { ...before, links: before.links.filter((l) => l.provider !== provider) } : before));
      setStatus({ tone: 'success', text: done.message });
    } catch (caught) {
      setStatus({ tone: 'error', text: errorMessage(caught, t('linked.error', { message: '' })) });
    } finally {
      setBusy(null);
    }
  }

  if (!user || !mine) return null;
  const rows = SIGN_IN_PROVIDERS.filter((provider) => mine.providers[provider] || mine.links.some((l) => l.provider === provider));
  if (rows.length === 0) return null;
  return (
    <section id="linked-accounts" className="card flex scroll-mt-20 flex-col gap-3" aria-labelledby="linked-accounts-title">
      <h2 id="linked-accounts-title" className="text-lg font-bold">
        {t('linked.title')}
      </h2>
      <p className="text-sm text-muted">{t('linked.intro')}</p>
      {status && <Notice tone={status.tone}>{status.text}</Notice>}
      <ul className="flex flex-col gap-2">
        {rows.map((provider) => {
          const held = mine.links.find((l) => l.provider === provider);
          return (
            <li key={provider} className="flex flex-wrap items-center gap-2 rounded-lg bg-surface-2 px-3 py-2" data-linked={provider}>
              <span className="min-w-0 flex-1 wrap-anywhere">
                {held ? (
                  <>
                    <span className="font-semibold">{nameOf(provider)}:</span>{' '}
                    {held.url ? (
                      <a href={held.url} rel="noopener noreferrer" target="_blank" className="underline">
                        {held.name}
                      </a>
                    ) : (
                      held.name
                    )}
                  </>
                ) : (
                  <span className="text-muted">{t('linked.notLinkedYet', { provider: nameOf(provider) })}</span>
                )}
              </span>
              {held ? (
                <button type="button" className="btn-ghost px-3 py-1 text-sm" disabled={busy !== null} onClick={() => void unlink(provider)}>
                  {t('linked.unlink')}
                </button>
              ) : (
                mine.providers[provider] && (
                  <button type="button" className="btn-primary px-3 py-1 text-sm" disabled={busy !== null} onClick={() => void link(provider)}>
                    {t('linked.link', { provider: nameOf(provider) })}
                  </button>
                )
              )}
            </li>
          );
        })}
      </ul>
      {!mine.hasPassword && <p className="text-sm text-muted">{t('linked.noPasswordHint')}</p>}
    </section>
  );
}
