import type { MatchActionView } from '../lib/api/stages.ts';
import { scoreText } from '../lib/domain/match-report.ts';
import type { Slot } from '../lib/domain/stage/format.ts';
import { t } from '../lib/i18n/index.ts';

/**
 * One line of a match's history (issue 22), in the reader's language: who did what, with the
 * score. A player's action names their side (the player or the team), an admin's the admin.
 */
export function actionText(action: MatchActionView, sideName: (side: Slot) => string): string {
  const who = action.side ? sideName(action.side) : (action.user?.username ?? t('matchPage.admin'));
  const score = scoreText(action);
  switch (action.kind) {
    case 'report':
      return t('matchAction.report', { who, score });
    case 'confirm':
      return t('matchAction.confirm', { who, score });
    case 'autoConfirm':
      return t('matchAction.autoConfirm', { score });
    case 'dispute':
      // A dispute without a reason is two reports that differed.
      return action.reason ? t('matchAction.dispute', { who }) : t('matchAction.disputeMismatch');
    case 'result':
      return t('matchAction.result', { who, score });
    case 'reset':
      return t('matchAction.reset', { who });
    case 'call':
      return action.reason ? t('matchAction.callWhy', { who, reason: action.reason }) : t('matchAction.call', { who });
    case 'callAnswered':
      return t('matchAction.callAnswered', { who });
    case 'checkIn':
      return t('matchAction.checkIn', { who });
    case 'noShow':
      // A no-show names the side that forfeited, or none when neither came.
      return action.side ? t('matchAction.noShow', { who }) : t('matchAction.noShowBoth');
    case 'lobby':
      return t('matchAction.lobby', { who });
  }
}
