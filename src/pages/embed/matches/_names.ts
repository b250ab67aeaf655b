import { participantName } from '../../../components/participant-names.ts';
import { namesOf } from '../../../components/stages/view.ts';
import type { MatchState } from '../../../lib/api/stages.ts';
import { t } from '../../../lib/i18n/index.ts';

/** The names of a match's sides as its embed shows them: a side not known yet is «to be decided». */
export function embedMatchNames(state: MatchState) {
  const names = namesOf(state.participants);
  const nameOf = (participant: string | null) => (participant ? participantName(names, participant) : t('matchPage.tbd'));
  return { names, nameOf };
}
