import { useId, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import type { Names } from '../../components/stages/view.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { scheduleStage } from '../../lib/api/schedule.ts';
import type { StageView } from '../../lib/api/stages.ts';
import { MAX_ROUND_MINUTES } from '../../lib/domain/stage/schedule.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { pageTimeZone } from '../../lib/i18n/format.ts';
import { scheduleRounds, scheduleToIso } from './schedule.ts';
import { zoneMark } from '../../lib/i18n/zone-mark.ts';
import { matchSections } from './sections.ts';
import type { StagesSync } from './sync.ts';

interface Props {
  sync: StagesSync;
  stage: StageView;
  names: Names;
  tournamentId: string;
  busy: boolean;
  onChanged: () => void;
}

const DEFAULT_ROUND_MINUTES = 60;

/**
 * The stage's schedule (issue 22): a start in the screen's zone, the tournament's or the admin's own (sent as an ISO moment with its
 * offset) and the minutes per round time every round in play order; or one chosen round at that start.
 * The server's message goes to the modal's notice line, and the board is read again.
 */
export function ScheduleForm({ sync, stage, names, tournamentId, busy, onChanged }: Props) {
  const id = useId();
  const rounds = scheduleRounds(matchSections(stage, names));
  const [start, setStart] = useState('');
  const [minutes, setMinutes] = useState(String(DEFAULT_ROUND_MINUTES));
  const [roundKey, setRoundKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (stage.complete || rounds.length === 0) return null;
  const chosen = rounds.find((r) => r.key === roundKey);

  async function submit() {
    setProblem(null);
    const iso = scheduleToIso(start, pageTimeZone());
    if (!iso) {
      setProblem(t('schedule.form.startInvalid'));
      return;
    }
    const scope = chosen ? { round: chosen.round, side: chosen.side, group: chosen.group } : { roundMinutes: Number(minutes) };
    await sync.change(async () => {
      try {
        const answer = await scheduleStage(api, tournamentId, stage._id, { start: iso, ...scope });
        sync.say({ tone: 'success', text: answer.message });
        onChanged();
      } catch (error) {
        setProblem(errorMessage(error, t('schedule.form.error')));
      }
    });
  }

  return (
    <details className="rounded-card border border-line p-3">
      <summary className="cursor-pointer text-sm font-semibold">{t('schedule.form.title')}</summary>
      <form
        className="mt-3 flex flex-col gap-3 text-sm"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p className="text-muted">{t('schedule.form.hint')}</p>
        <div className="grid gap-3 sm:grid-cols-3">
          <div className="flex flex-col gap-1 font-medium">
            <label htmlFor={`${id}-start`}>{t('schedule.form.start', { zone: zoneMark(pageTimeZone()) })}</label>
            <input
              id={`${id}-start`}
              type="datetime-local"
              className="field min-h-11"
              required
              value={start}
              onChange={(event) => setStart(event.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1 font-medium">
            <label htmlFor={`${id}-round`}>{t('schedule.form.round')}</label>
            <select id={`${id}-round`} className="field min-h-11" value={chosen?.key ?? ''} onChange={(event) => setRoundKey(event.target.value)}>
              <option value="">{t('schedule.form.allRounds')}</option>
              {rounds.map((r) => (
                <option key={r.key} value={r.key}>
                  {r.title}
                </option>
              ))}
            </select>
          </div>
          {!chosen && (
            <div className="flex flex-col gap-1 font-medium">
              <label htmlFor={`${id}-minutes`}>{t('schedule.form.minutes')}</label>
              <input
                id={`${id}-minutes`}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_ROUND_MINUTES}
                step={1}
                className="field min-h-11"
                aria-describedby={`${id}-minutes-hint`}
                value={minutes}
                onChange={(event) => setMinutes(event.target.value)}
              />
              <span id={`${id}-minutes-hint`} className="text-xs font-normal text-muted">
                {t('schedule.form.minutesHint')}
              </span>
            </div>
          )}
        </div>
        <button type="submit" className="btn-primary min-h-11 self-start" disabled={busy}>
          {t('schedule.form.submit')}
        </button>
        {problem && <Notice tone="error">{problem}</Notice>}
      </form>
    </details>
  );
}
