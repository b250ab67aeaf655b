import type { MatchSnapshot, StageSnapshot } from '../../../../lib/domain/audit.ts';
import type { AuditKind } from '../../../../lib/domain/organisers.ts';
import type { ResolvedMatch } from '../../../../lib/domain/stage/resolve.ts';
import type { Tx } from '../../../db/client.ts';
import type { AuditActor, AuditEntry } from '../audit.ts';
import { actorsOf } from '../../match-day/match-actions.ts';
import type { LoadedStage, StageRow, TournamentRow } from './store.ts';

/* The audit log's rows for stages: a played result that changed, a stage created or reset. */

/** A result someone played: not a bye's, not a disqualified side's forfeit (those follow from other changes). */
export const played = (m: ResolvedMatch): boolean => m.result !== null && !m.disqualification;

/** What a change of a match's result is called in the audit log, or null when no played result changed. */
function resultKind(before: ResolvedMatch, after: ResolvedMatch): AuditKind | null {
  if (!played(before) && !played(after)) return null;
  if (!played(after)) return 'resultReset';
  const forfeit = after.result!.forfeit !== null && (!played(before) || before.result!.forfeit !== after.result!.forfeit);
  if (forfeit) return 'forfeit';
  return played(before) ? 'resultCorrected' : 'resultEntered';
}

/**
 * How a stage save goes into the audit log: who made it, and the match they changed, if one (its
 * kind says a dispute was resolved; every other result that changed with it was reset by it).
 */
export interface StageAudit {
  actor: AuditActor | null;
  target?: { index: number; disputed: boolean };
}

/** The audit rows of the played results a save changed, each with its match before and after. */
export async function resultEntries(
  tx: Tx,
  tournament: TournamentRow,
  loaded: LoadedStage,
  resolved: readonly ResolvedMatch[],
  changed: readonly number[],
  audit: StageAudit,
): Promise<AuditEntry[]> {
  const kinds = changed.flatMap((index) => {
    const kind = resultKind(loaded.resolved[index]!, resolved[index]!);
    return kind ? [{ index, kind }] : [];
  });
  if (kinds.length === 0) return [];
  const names = await actorsOf(
    tx,
    tournament.soloOnly,
    kinds.flatMap(({ index }) => [loaded.resolved[index]!.a, loaded.resolved[index]!.b, resolved[index]!.a, resolved[index]!.b]),
  );
  const snapshot = (m: ResolvedMatch): MatchSnapshot => ({
    a: m.a ? (names.get(m.a)?.name ?? '') : null,
    b: m.b ? (names.get(m.b)?.name ?? '') : null,
    result: played(m) ? { scoreA: m.result!.scoreA, scoreB: m.result!.scoreB, winner: m.result!.winner, forfeit: m.result!.forfeit } : null,
  });
  const target = audit.target;
  const causedBy = target ? loaded.rows[target.index]!.id : null;
  return kinds.map(({ index, kind }) => {
    const isTarget = target?.index === index;
    return {
      tournamentId: tournament.id,
      matchId: loaded.rows[index]!.id,
      actor: audit.actor,
      kind: isTarget && target.disputed && kind !== 'resultReset' ? 'disputeResolved' : kind,
      // A result withdrawn because another match changed names that match.
      subjectId: target && !isTarget ? causedBy : null,
      before: snapshot(loaded.resolved[index]!),
      after: snapshot(resolved[index]!),
    };
  });
}

/** A stage as the audit log keeps it. */
export const stageSnapshot = (stage: StageRow, results?: number): StageSnapshot => ({
  name: stage.name,
  number: stage.number,
  format: stage.format,
  participants: stage.seeds.filter((id) => id !== null).length,
  ...(results === undefined ? {} : { results }),
});

export const stageCreatedEntry = (tournamentId: string, stage: StageRow, actor: AuditActor): AuditEntry => ({
  tournamentId,
  actor,
  kind: 'stageCreated',
  subjectId: stage.id,
  after: stageSnapshot(stage),
});
