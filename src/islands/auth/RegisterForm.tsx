import { useEffect, useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { EMAIL_MAX, PASSWORD_MAX, USERNAME_MAX } from '../../lib/api/limits.ts';
import { Notice } from '../../components/Notice.tsx';
import { register } from '../../lib/api/auth.ts';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { RETURN_PARAM, returnPath, signInPath } from '../../lib/domain/address.ts';

/** Milliseconds the separate /register page waits after success before it opens /login (SPEC §2). */
export const REGISTER_REDIRECT_MS = 2000;

/**
 * Registration; `redirectToLogin` sends the user to /login two seconds after success, passing on
 * the address's `next` (where the sign-in then returns them).
 */
export function RegisterForm({ redirectToLogin = false }: { redirectToLogin?: boolean }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (!redirectToLogin || result?.tone !== 'success') return;
    const next = returnPath(new URLSearchParams(window.location.search).get(RETURN_PARAM));
    const timer = setTimeout(() => window.location.assign(next ? signInPath(next) : '/login'), REGISTER_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [redirectToLogin, result]);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    setResult(null);
    try {
      const answer = await register(api, {
        username: String(form.get('username') ?? ''),
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
      });
      setResult({ tone: 'success', text: answer.message });
      formElement.reset();
    } catch (caught) {
      setResult({ tone: 'error', text: isNetworkFailure(caught) ? t('auth.networkError') : errorMessage(caught, t('auth.registerError')) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={t('auth.registerTab')}>
      <Field label={t('auth.username')} id="register-username" name="username" autoComplete="username" required minLength={3} limit={USERNAME_MAX} />
      <Field label={t('auth.email')} id="register-email" name="email" type="email" autoComplete="email" required limit={EMAIL_MAX} />
      <Field label={t('auth.password')} id="register-password" name="password" type="password" autoComplete="new-password" required minLength={8} limit={PASSWORD_MAX} />
      {result && <Notice tone={result.tone}>{result.text}</Notice>}
      {result?.tone === 'success' && (
        // What comes next (issue 57): confirm the address, then sign in; the letter may be asked for again.
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <a href="/login">{t('auth.afterRegisterSignIn')}</a>
          <a href="/confirm">{t('auth.afterRegisterResend')}</a>
        </p>
      )}
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? t('auth.busy') : t('auth.registerButton')}
      </button>
    </form>
  );
}

export default RegisterForm;
