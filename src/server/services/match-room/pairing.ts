import { and, inArray, ne, type SQLWrapper } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { matchRooms, matchVetoMoves } from '../../db/schema/index.ts';

/**
 * A match room's state belongs to the pairing it was made for (decision 038). Match ids are fixed
 * by their place in the plan, so an organiser's correction upstream can put another side into a
 * match whose room is under way. Then its veto and its room (the lobby details, how the check-in
 * ended) start over: the newcomer neither inherits the old pair's bans nor skips the check-in, and
 * does not read a lobby password meant for someone else. Check-ins are kept by participant, so the
 * side that stays is still in and the one that left counts for nobody. The chat and the evidence
 * stay, the match's record for its organisers.
 *
 * A result withdrawn between the same sides (`replayed`) reopens a check-in that ended without both
 * sides (a forfeit for not showing, or nobody came): the organisers want the match played, and its
 * new time to check in runs from now. A check-in both sides made, and the veto, stand.
 */
export function pairingResets(tx: Tx, { newSides, replayed }: { newSides: readonly string[]; replayed: readonly string[] }): SQLWrapper[] {
  const writes: SQLWrapper[] = [];
  if (newSides.length > 0) {
    writes.push(
      tx.delete(matchVetoMoves).where(inArray(matchVetoMoves.matchId, [...newSides])),
      tx.delete(matchRooms).where(inArray(matchRooms.matchId, [...newSides])),
    );
  }
  if (replayed.length > 0) {
    writes.push(
      tx
        .update(matchRooms)
        .set({ checkInOutcome: null, checkInClosedAt: null })
        .where(and(inArray(matchRooms.matchId, [...replayed]), ne(matchRooms.checkInOutcome, 'both'))),
    );
  }
  return writes;
}
