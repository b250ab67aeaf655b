import { useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { EMAIL_MAX, PASSWORD_MAX } from '../../lib/api/limits.ts';
import { Notice } from '../../components/Notice.tsx';
import { login } from '../../lib/api/auth.ts';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { signIn } from '../../lib/stores/session.ts';
import { RETURN_PARAM, returnPath } from '../../lib/domain/address.ts';

/**
 * Login by nickname or email; on success the user goes back where the address's `next` says (a
 * path on this site: the tournament they came to apply to), else to the home page.
 */
export function LoginForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError('');
    try {
      const result = await login(api, {
        loginOrEmail: String(form.get('loginOrEmail') ?? ''),
        password: String(form.get('password') ?? ''),
      });
      signIn(result.user, result.token);
      window.location.assign(returnPath(new URLSearchParams(window.location.search).get(RETURN_PARAM)) ?? '/');
    } catch (caught) {
      setError(isNetworkFailure(caught) ? t('auth.networkError') : errorMessage(caught, t('auth.loginError')));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={t('auth.loginTab')}>
      <Field label={t('auth.loginOrEmail')} id="login-name" name="loginOrEmail" autoComplete="username" required limit={EMAIL_MAX} />
      <Field label={t('auth.password')} id="login-password" name="password" type="password" autoComplete="current-password" required limit={PASSWORD_MAX} />
      {error && <Notice tone="error">{error}</Notice>}
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? t('auth.busy') : t('auth.loginButton')}
      </button>
    </form>
  );
}
