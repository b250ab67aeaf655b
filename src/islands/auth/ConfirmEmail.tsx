import { useEffect, useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { EMAIL_MAX } from '../../lib/api/limits.ts';
import { Notice } from '../../components/Notice.tsx';
import { confirmEmail, resendConfirmation } from '../../lib/api/auth.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';

type Status = { state: 'checking' } | { state: 'done'; tone: 'success' | 'error' | 'info'; text: string; confirmed: boolean };

/** /confirm: spends the token from the letter, or offers to send the letter again. */
export default function ConfirmEmail() {
  // Rendered only in the browser (client:only), so the token can be read while setting up state.
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token'));
  const [status, setStatus] = useState<Status>(() =>
    token ? { state: 'checking' } : { state: 'done', tone: 'info', text: t('confirm.letterSent'), confirmed: false },
  );
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [resendResult, setResendResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (!token) return;
    confirmEmail(api, token).then(
      (answer) => setStatus({ state: 'done', tone: 'success', text: answer.message, confirmed: true }),
      (error: unknown) => setStatus({ state: 'done', tone: 'error', text: errorMessage(error, t('confirm.letterSent')), confirmed: false }),
    );
  }, [token]);

  async function onResend(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim()) {
      setResendResult({ tone: 'error', text: t('confirm.enterEmail') });
      return;
    }
    setSending(true);
    setResendResult(null);
    try {
      const answer = await resendConfirmation(api, { email: email.trim() });
      setResendResult({ tone: 'success', text: answer.message || t('confirm.sent') });
    } catch (error) {
      setResendResult({ tone: 'error', text: errorMessage(error, t('confirm.sendError')) });
    } finally {
      setSending(false);
    }
  }

  if (status.state === 'checking') return <Notice>{t('confirm.checking')}</Notice>;

  return (
    <div className="flex flex-col gap-5">
      <Notice tone={status.tone}>{status.text}</Notice>
      {status.confirmed ? (
        <a href="/login" className="btn-primary self-start">
          {t('confirm.toLogin')}
        </a>
      ) : (
        <form onSubmit={onResend} noValidate className="flex flex-col gap-3">
          <Field label={t('auth.email')} id="resend-email" name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} limit={EMAIL_MAX} />
          {resendResult && <Notice tone={resendResult.tone}>{resendResult.text}</Notice>}
          <button type="submit" className="btn-primary self-start" disabled={sending}>
            {sending ? t('confirm.sending') : t('confirm.resend')}
          </button>
        </form>
      )}
    </div>
  );
}
