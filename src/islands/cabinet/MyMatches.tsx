import { useState } from 'react';
import { CheckInList, MyMatchList } from '../../components/MyMatchesView.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { useMyMatches } from '../../lib/hooks/my-matches.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { getCalendarLink, revokeCalendarLink } from '../../lib/api/schedule.ts';
import { readerTimeZone } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $user } from '../../lib/stores/session.ts';

/**
 * The cabinet's «Мої матчі» (issue 22): open check-ins with their buttons, my next match and the
 * rest, and my personal calendar feed. Nothing for a guest: the cabinet asks them to sign in.
 */
export default function MyMatches() {
  const user = useHydratedStore($user, null);
  const { state, busy, problem, toggleCheckIn } = useMyMatches(user?._id ?? null);
  if (!user) return null;
  const timeZone = readerTimeZone();
  return (
    <section className="card flex flex-col gap-4" aria-labelledby="my-matches">
      <h2 id="my-matches" className="text-lg font-bold">
        {t('myMatches.title')}
      </h2>
      {state.kind === 'loading' && <p className="text-muted">{t('myMatches.loading')}</p>}
      {state.kind === 'error' && <Notice tone="error">{state.message}</Notice>}
      {state.kind === 'ready' && (
        <>
          <CheckInList checkIns={state.data.checkIns} timeZone={timeZone} busy={busy} problem={problem} onToggle={(id, on) => void toggleCheckIn(id, on)} />
          <MyMatchList matches={state.data.matches} timeZone={timeZone} />
        </>
      )}
      <CalendarLink />
    </section>
  );
}

type Link = { kind: 'hidden' } | { kind: 'loading' } | { kind: 'shown'; url: string };

/**
 * The secret address of my calendar feed: asked for only on demand, shown read-only with a copy
 * button; changing it (after a confirm step) makes the old one answer 404.
 */
function CalendarLink() {
  const [link, setLink] = useState<Link>({ kind: 'hidden' });
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState(false);
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function show() {
    setLink({ kind: 'loading' });
    setStatus(null);
    try {
      setLink({ kind: 'shown', url: (await getCalendarLink(api)).url });
    } catch (error) {
      setLink({ kind: 'hidden' });
      setStatus({ tone: 'error', text: errorMessage(error, t('calendar.error')) });
    }
  }

  async function revoke() {
    setConfirming(false);
    setStatus(null);
    try {
      const answer = await revokeCalendarLink(api);
      setLink({ kind: 'shown', url: answer.url });
      setCopied(false);
      setStatus({ tone: 'success', text: answer.message });
    } catch (error) {
      setStatus({ tone: 'error', text: errorMessage(error, t('calendar.error')) });
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the address is selected for a manual copy.
      (document.getElementById('calendar-url') as HTMLInputElement | null)?.select();
    }
  }

  return (
    <section aria-labelledby="my-calendar" className="flex flex-col gap-2 border-t border-line pt-4">
      <h3 id="my-calendar" className="font-semibold">
        {t('calendar.title')}
      </h3>
      <p className="text-sm text-muted">{t('calendar.hint')}</p>
      {link.kind === 'shown' ? (
        <>
          <label htmlFor="calendar-url" className="text-sm font-medium">
            {t('calendar.address')}
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              id="calendar-url"
              className="field min-h-11 min-w-0 flex-1 font-mono text-xs"
              readOnly
              value={link.url}
              onFocus={(event) => event.target.select()}
            />
            <button type="button" className="btn-ghost min-h-11 shrink-0" onClick={() => void copy(link.url)}>
              {copied ? t('calendar.copied') : t('calendar.copy')}
            </button>
          </div>
          {confirming ? (
            <div role="alert" className="flex flex-col gap-3 rounded-lg border border-danger p-3 text-sm">
              <p className="font-semibold text-danger">{t('calendar.revokeConfirm')}</p>
              <div className="flex flex-wrap justify-end gap-2">
                <button type="button" className="btn-ghost min-h-11" onClick={() => setConfirming(false)}>
                  {t('calendar.cancel')}
                </button>
                <button type="button" className="btn-primary min-h-11" onClick={() => void revoke()}>
                  {t('calendar.revokeYes')}
                </button>
              </div>
            </div>
          ) : (
            <button type="button" className="btn-ghost min-h-11 self-start text-danger" onClick={() => setConfirming(true)}>
              {t('calendar.revoke')}
            </button>
          )}
        </>
      ) : (
        <button type="button" className="btn-ghost min-h-11 self-start" disabled={link.kind === 'loading'} onClick={() => void show()}>
          {t('calendar.show')}
        </button>
      )}
      {status && <Notice tone={status.tone}>{status.text}</Notice>}
    </section>
  );
}
