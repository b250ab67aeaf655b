import type { BracketParticipant } from '../../../lib/api/bracket.ts';
import { findProblem, type Bracket, type BracketProblem, type Seeding } from '../../../lib/domain/bracket.ts';
import type { Tx } from '../../db/client.ts';
import type { tournaments } from '../../db/schema/index.ts';
import type { AuditActor } from './audit.ts';
import { approvedParticipants } from '../match-day/participants.ts';
import { drawSingleElimination, saveSingleElimination, type BracketDraw } from './stages/spec-bracket.ts';
import { lockTournament } from './stages/store.ts';
import { publishing } from '../live/live.ts';

export { findTournamentRow } from './stages/store.ts';

/*
 * The SPEC bracket (SPEC §3–4, `…/bracket`) as it always was, now a view of the tournament's
 * single-elimination stage (issue 21): a draw creates the stage, a save writes its matches, and
 * `tournaments.bracket` is kept by the stage service as the SPEC's readers see it.
 */

type TournamentRow = typeof tournaments.$inferSelect;

export type Draw = BracketDraw;

/**
 * Draws the bracket from the approved participants (SPEC §4 Bracket creation) in one transaction.
 * The draw closes applications: a pending tournament becomes started with it (`started` tells).
 * Drawing over played results needs `replace`. Once it committed, the tournament's viewers hear of
 * the new stage with the version it made.
 */
export const drawBracket = publishing(
  (db: Tx, id: string, options: { seeding: Seeding; replace: boolean }, actor: AuditActor): Promise<Draw> => drawSingleElimination(db, id, options, actor),
  (draw, _db, tournamentId) => ({ tournamentId, kind: 'stage', version: draw.version }),
);

export type BracketSave =
  | {
      ok: true;
      stale: false;
      row: TournamentRow;
      participants: BracketParticipant[];
      version: number;
      bracket: Bracket;
    }
  /** The save was based on an older version: nothing changed, and `row` holds the newer bracket. */
  | {
      ok: true;
      stale: true;
      row: TournamentRow;
      participants: BracketParticipant[];
    }
  | { ok: false; reason: 'notFound' }
  | { ok: false; reason: 'otherStages' }
  | { ok: false; reason: 'invalid'; problem: BracketProblem };

/**
 * Saves an edited bracket (SPEC §4) in one transaction, the tournament row locked so saves queue
 * up: a save based on an older version than the stored one (`expected`) changes nothing; a bracket
 * the engine finds wrong against the participants (`findProblem`) is refused; an empty one clears it.
 * Each result it changes goes into the audit log as `actor`'s.
 */
async function saveSpecBracket(db: Tx, id: string, bracket: Bracket, expected: number | undefined, actor: AuditActor): Promise<BracketSave> {
  return db.transaction(async (tx) => {
    const row = await lockTournament(tx, id);
    if (!row) return { ok: false, reason: 'notFound' } as const;
    const participants = await approvedParticipants(tx, row);
    if (expected !== undefined && expected !== row.bracketVersion) return { ok: true, stale: true, row, participants } as const;
    if (bracket.length > 0) {
      const problem = findProblem(
        bracket,
        participants.map((p) => p._id),
      );
      if (problem) return { ok: false, reason: 'invalid', problem } as const;
    }
    const saved = await saveSingleElimination(tx, row, bracket, actor);
    if (!saved.ok) return saved;
    return {
      ok: true,
      stale: false,
      row,
      participants,
      version: saved.version,
      bracket: saved.bracket,
    } as const;
  });
}

/** A bracket saved (not a stale save): the tournament's viewers hear of it. */
export const saveBracket = publishing(saveSpecBracket, (outcome, _db, tournamentId) => (outcome.stale ? null : { tournamentId, kind: 'match', version: outcome.version }));
