import { t } from '../lib/i18n/index.ts';

/** The crown on the winner, read out as «переможець». */
export function Crown() {
  return (
    <span role="img" aria-label={t('bracket.winnerMark')} className="shrink-0">
      👑
    </span>
  );
}
