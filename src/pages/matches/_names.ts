import { participantHref, participantName } from '../../components/participant-names.ts';
import { namesOf } from '../../components/stages/view.ts';
import type { MatchState } from '../../lib/api/stages.ts';
import { t } from '../../lib/i18n/index.ts';

/** The names of a match's sides as its pages show them (a side not known yet is «to be decided»), and their profiles. */
export function matchNames(state: MatchState) {
  const names = namesOf(state.participants);
  const nameOf = (participant: string | null) => (participant ? participantName(names, participant) : t('matchPage.tbd'));
  // The heading's names link to the profiles (issue 23).
  const hrefOf = (participant: string | null) => participantHref(names, participant);
  return { names, nameOf, hrefOf };
}
