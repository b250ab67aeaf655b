/**
 * A stage match's id: its stage's id with the last 8 hex digits replaced by the match's place in
 * the stage (group, side, round, position). Place is unique within a stage, and the stage id's
 * other 24 digits keep ~90 random bits, so ids stay unique; and since a stage's matches share all
 * but 8 digits, its answer (`GET …/stages`, 511 matches for 256 players in double elimination)
 * compresses to about half of what random ids allowed (decision 013). Matches made before this
 * (migration 0006, earlier stages) keep their random ids; nothing reads meaning back from an id.
 */
import { BRACKET_SIDES, type BracketSide } from '../../../lib/domain/stage/format.ts';

interface Place {
  group: number | null;
  side: BracketSide | null;
  round: number;
  position: number;
}

const LIMITS = { group: 0x1f, side: 0x7, round: 0xff, position: 0xffff };

export function stageMatchId(stageId: string, place: Place): string {
  const group = place.group ?? 0;
  const side = place.side === null ? 0 : BRACKET_SIDES.indexOf(place.side) + 1;
  if (group > LIMITS.group || place.round > LIMITS.round || place.position > LIMITS.position || side > LIMITS.side) {
    throw new RangeError(`a match place outside the id's fields: ${JSON.stringify(place)}`);
  }
  const packed = ((group << 27) | (side << 24) | (place.round << 16) | place.position) >>> 0;
  return stageId.slice(0, -8) + packed.toString(16).padStart(8, '0');
}
