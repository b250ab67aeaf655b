import { useId, useState } from 'react';
import type { CheckInEntry, ControlRoom } from '../../../lib/api/control-room.ts';
import { t } from '../../../lib/i18n/index.ts';
import { clock } from './clock.ts';

interface Props {
  checkIn: NonNullable<ControlRoom['checkIn']>;
  drawn: boolean;
  busy: boolean;
  onSet: (entry: CheckInEntry, checkedIn: boolean) => void;
  onExtend: (closesAt: string) => void;
}

/** The quick extensions an organiser reaches for when players are still on their way. */
const EXTENSIONS = [5, 10, 15];

/** `datetime-local`'s value for a moment, on the reader's clock. */
const localValue = (iso: string) => {
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

const STATE: Record<string, 'control.checkIn.in' | 'control.checkIn.missing' | 'control.checkIn.waitlisted' | 'control.checkIn.noShow'> = {
  in: 'control.checkIn.in',
  missing: 'control.checkIn.missing',
  waitlisted: 'control.checkIn.waitlisted',
  noShow: 'control.checkIn.noShow',
};

const stateOf = (e: CheckInEntry) => (e.status === 'noShow' ? 'noShow' : e.checkedInAt ? 'in' : e.status === 'waitlisted' ? 'waitlisted' : 'missing');

/**
 * Check-in at the organisers' desk (issue 57): who has checked in and who has not, checking a player
 * in or out for them, bringing back someone dropped at the close, and moving the close later while
 * it is still ahead. Until the competition is drawn: after that the lineup is fixed.
 */
export function CheckInDesk({ checkIn, drawn, busy, onSet, onExtend }: Props) {
  const id = useId();
  const [closesAt, setClosesAt] = useState(() => localValue(checkIn.closesAt));
  const lineup = checkIn.entries.filter((e) => e.status === 'approved');
  const checkedIn = lineup.filter((e) => e.checkedInAt).length;
  const extendable = !drawn && checkIn.closedAt === null;

  return (
    <section aria-labelledby={`${id}-title`} className="card flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-lg font-bold">
          {t('control.checkIn.title')}
        </h2>
        <p className="text-sm text-muted">{t('control.checkIn.count', { in: checkedIn, total: lineup.length })}</p>
      </div>
      <p className="text-sm">
        {checkIn.phase === 'open'
          ? t('control.checkIn.open', { time: clock(checkIn.closesAt) })
          : checkIn.phase === 'notOpen'
            ? t('control.checkIn.notOpen', { time: clock(checkIn.opensAt), time2: clock(checkIn.closesAt) })
            : t('control.checkIn.closed', { time: clock(checkIn.closedAt ?? checkIn.closesAt) })}
      </p>
      {drawn && <p className="text-sm text-muted">{t('control.checkIn.drawn')}</p>}
      {extendable && (
        <div className="flex flex-wrap items-end gap-2">
          {EXTENSIONS.map((minutes) => (
            <button key={minutes} type="button" className="btn-ghost min-h-11 px-3 text-sm" disabled={busy} onClick={() => onExtend(new Date(Math.max(Date.parse(checkIn.closesAt), Date.now()) + minutes * 60_000).toISOString())}>
              {t('control.checkIn.extend', { minutes })}
            </button>
          ))}
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              if (closesAt) onExtend(new Date(closesAt).toISOString());
            }}
          >
            <label className="flex flex-col gap-1 text-sm font-medium" htmlFor={`${id}-close`}>
              {t('control.checkIn.extendTo')}
              <input id={`${id}-close`} type="datetime-local" className="field min-h-11" value={closesAt} onChange={(event) => setClosesAt(event.target.value)} />
            </label>
            <button type="submit" className="btn-ghost min-h-11 px-3 text-sm" disabled={busy}>
              {t('control.checkIn.extendSave')}
            </button>
          </form>
        </div>
      )}
      {checkIn.entries.length === 0 ? (
        <p className="text-sm text-muted">{t('control.checkIn.none')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line">
          {checkIn.entries.map((entry) => {
            const state = stateOf(entry);
            return (
              <li key={entry.applicationId} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-application={entry.applicationId}>
                <span className="min-w-0 flex-1 font-medium wrap-anywhere">{entry.name}</span>
                <span className={`text-sm ${state === 'in' ? 'text-success' : state === 'noShow' || state === 'missing' ? 'text-danger' : 'text-muted'}`}>{t(STATE[state]!)}</span>
                {!drawn && (
                  <button type="button" className={`${state === 'in' ? 'btn-ghost' : 'btn-primary'} min-h-11 px-3 text-sm`} disabled={busy} onClick={() => onSet(entry, state !== 'in')}>
                    {t(state === 'in' ? 'control.checkIn.undo' : state === 'noShow' ? 'control.checkIn.restore' : 'control.checkIn.checkIn')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
