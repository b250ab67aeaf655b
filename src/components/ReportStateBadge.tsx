import type { ReportState } from '../lib/domain/match-day.ts';
import { t } from '../lib/i18n/index.ts';

const tones: Record<ReportState, string> = {
  reported: 'border-warning text-warning',
  disputed: 'border-danger text-danger',
};

/** A players' report on a match card (issue 22): waiting for the other side, or disputed for the admin to settle. */
export function ReportStateBadge({ state }: { state: ReportState }) {
  return (
    <span className={`inline-flex shrink-0 items-center rounded-full border px-2 py-0.5 text-[0.7rem] leading-4 font-semibold ${tones[state]}`}>
      {t(`stages.report.${state}`)}
    </span>
  );
}
