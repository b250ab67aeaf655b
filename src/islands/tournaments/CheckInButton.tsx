import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { setCheckIn } from '../../lib/api/check-in.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { checkInPhase, type Schedule } from '../../lib/domain/registration.ts';
import { formatDateTime } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';

interface Props {
  tournamentId: string;
  /** The tournament's check-in settings and the window's effective times. */
  schedule: Schedule;
  closesAt: string;
  opensAt: string;
  /** The participant's application: when it checked in, and whether it waits on the waitlist. */
  checkedInAt: string | null;
  waitlisted: boolean;
  /** Called after a change, so the owner reloads what it shows. */
  onChange: () => void;
}

/**
 * The participant's check-in (issue 22): while the window is open, a button to check in or undo
 * it and what it means; before it, when it opens. The window is judged on the reader's clock,
 * again each minute; the server has the last word.
 */
export function CheckInButton({ tournamentId, schedule, opensAt, closesAt, checkedInAt, waitlisted, onChange }: Props) {
  const [now, setNow] = useState(() => new Date());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);

  const phase = checkInPhase(schedule, now);
  if (phase === 'disabled' || phase === 'closed') return null;
  if (phase === 'notOpen') return <p className="text-sm text-muted">{t('checkIn.notOpenYet', { time: formatDateTime(opensAt) })}</p>;

  async function toggle() {
    setBusy(true);
    setError(null);
    try {
      await setCheckIn(api, tournamentId, !checkedInAt);
      onChange();
    } catch (failure) {
      setError(errorMessage(failure, t('checkIn.error')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-2" data-testid="check-in">
      <p className={`text-sm ${checkedInAt ? 'text-success' : 'text-warning'}`}>
        {checkedInAt ? t(waitlisted ? 'checkIn.checkedInWaitlist' : 'checkIn.checkedIn') : t('checkIn.pending', { time: formatDateTime(closesAt) })}
      </p>
      <button type="button" className={`${checkedInAt ? 'btn-ghost' : 'btn-primary'} self-start`} disabled={busy} onClick={() => void toggle()}>
        {busy ? t('checkIn.busy') : t(checkedInAt ? 'checkIn.undo' : 'checkIn.button')}
      </button>
      {error && <Notice tone="error">{error}</Notice>}
    </div>
  );
}
