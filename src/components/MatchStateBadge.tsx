import type { MatchState } from '../lib/domain/bracket.ts';
import { t } from '../lib/i18n/index.ts';

const stateTones: Record<MatchState, string> = {
  completed: 'border-line text-muted',
  ready: 'border-success text-success',
  waiting: 'border-warning text-warning',
};

/** Завершено (grey), Готовий (green), Очікує (orange): SPEC §2 match status badge, on brackets and stages alike. */
export function MatchStateBadge({ state }: { state: MatchState }) {
  return (
    <span className={`inline-flex shrink-0 items-center rounded-full border px-2 py-0.5 text-[0.7rem] leading-4 font-semibold ${stateTones[state]}`}>
      {t(`bracket.state.${state}`)}
    </span>
  );
}
