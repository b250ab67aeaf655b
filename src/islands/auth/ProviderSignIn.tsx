import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { exchangeSignInCode, getSignInProviders, signInStartPath, type SignInProvidersView } from '../../lib/api/linked-account-calls.ts';
import { isSignInFailure, SIGN_IN_PROVIDERS } from '../../lib/domain/linked-accounts.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { signIn } from '../../lib/stores/session.ts';

const API_BASE = import.meta.env.PUBLIC_API_URL ?? '/api';

/** What the login page's address says a provider's sign-in came back with: a one-time code, or a reason it failed. */
function returned(): { code: string | null; failure: string | null } {
  if (typeof window === 'undefined') return { code: null, failure: null };
  const query = new URLSearchParams(window.location.search);
  const reason = query.get('oauthError');
  return { code: query.get('oauth'), failure: reason && isSignInFailure(reason) ? t(`linked.failed.${reason}`) : null };
}

/**
 * Sign-in with Discord and Steam on the login page (issue 60, decision 044): a plain link per
 * provider the site has turned on (none shows when none is), and the end of a provider's sign-in,
 * which comes back here with a one-time code that is traded for the session by POST, so the token
 * never travels in an address.
 */
export function ProviderSignIn() {
  const [{ code, failure }] = useState(returned);
  const [providers, setProviders] = useState<SignInProvidersView | null>(null);
  const [error, setError] = useState(failure ?? '');
  const [busy, setBusy] = useState(Boolean(code));

  useEffect(() => {
    let live = true;
    getSignInProviders(api)
      .then((found) => live && setProviders(found))
      .catch(() => live && setProviders({ discord: false, steam: false }));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (!code) return;
    // The code is spent by the exchange: it leaves the address (and the history) at once.
    window.history.replaceState(null, '', window.location.pathname);
    exchangeSignInCode(api, code)
      .then((result) => {
        signIn(result.user, result.token);
        // A new account goes to the cabinet, where its name, address and linked accounts are set.
        window.location.assign(result.created ? '/cabinet' : '/');
      })
      .catch((caught: unknown) => {
        setError(isNetworkFailure(caught) ? t('auth.networkError') : errorMessage(caught, t('linked.badCode')));
        setBusy(false);
      });
  }, [code]);

  const shown = SIGN_IN_PROVIDERS.filter((provider) => providers?.[provider]);
  if (!busy && !error && shown.length === 0) return null;
  return (
    <div className="mb-4 flex flex-col gap-3" data-testid="provider-sign-in">
      {busy && <Notice>{t('linked.signingIn')}</Notice>}
      {error && <Notice tone="error">{error}</Notice>}
      {shown.length > 0 && (
        <>
          <div className="grid gap-2 sm:grid-cols-2">
            {shown.map((provider) => (
              <a key={provider} href={signInStartPath(API_BASE, provider)} className="btn justify-center border border-line" data-provider={provider}>
                {t('linked.signInWith', { provider: t(`linked.provider.${provider}`) })}
              </a>
            ))}
          </div>
          <p className="flex items-center gap-3 text-xs text-muted before:h-px before:flex-1 before:bg-line after:h-px after:flex-1 after:bg-line">{t('linked.or')}</p>
        </>
      )}
    </div>
  );
}
