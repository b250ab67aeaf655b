import type { BracketParticipant } from '../lib/api/bracket.ts';
import { profilePath } from '../lib/domain/participant.ts';
import { t } from '../lib/i18n/index.ts';

/** The participants by id, for looking up names (brackets, stages, tables). */
export const participantIndex = (participants: readonly BracketParticipant[]) => new Map(participants.map((p) => [p._id, p]));

/** The shown name of a participant id: from the API's list, or «Невідомий учасник» when it left. */
export function participantName(index: Map<string, BracketParticipant>, id: string): string {
  return index.get(id)?.name ?? t('bracket.unknownParticipant');
}

/** Where a participant's name links: their profile (issue 23); null for one who left (no link to a missing page). */
export function participantHref(index: Map<string, BracketParticipant>, id: string | null): string | null {
  const participant = id ? index.get(id) : undefined;
  return participant ? profilePath(participant.type, participant._id) : null;
}
