import type { StageView } from '../../../../lib/api/stages.ts';
import type { DisqualifiedSnapshot } from '../../../../lib/domain/audit.ts';
import { isFinished } from '../../../../lib/domain/tournament-status.ts';
import type { Tx } from '../../../db/client.ts';
import { recordAudit, type AuditActor } from '../audit.ts';
import { actorsOf } from '../../match-day/match-actions.ts';
import { publishing } from '../../live/live.ts';
import { saveStage } from './save.ts';
import { loadStages, lockTournament } from './store.ts';
import { stageView } from './views.ts';

export type Disqualified =
  | { ok: true; stages: StageView[] }
  | {
      ok: false;
      reason: 'notFound' | 'finished' | 'notParticipant' | 'already';
    };

/**
 * Disqualifies a participant (issue 21): in every stage they play, each match of theirs not yet
 * played is forfeited to the opponent, now and as later ones come; results already entered stand.
 */
async function disqualifyParticipant(db: Tx, tournamentId: string, participant: string, actor: AuditActor): Promise<Disqualified> {
  return db.transaction(async (tx): Promise<Disqualified> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'notFound' };
    if (isFinished(tournament.status)) return { ok: false, reason: 'finished' };
    let all = await loadStages(tx, tournamentId);
    const playing = all.filter((s) => s.stage.seeds.includes(participant));
    if (playing.length === 0) return { ok: false, reason: 'notParticipant' };
    if (playing.every((s) => s.stage.disqualified.includes(participant))) return { ok: false, reason: 'already' };
    let forfeits = 0;
    for (const loaded of playing) {
      if (loaded.stage.disqualified.includes(participant)) continue;
      const current = all.find((s) => s.stage.id === loaded.stage.id)!;
      const { stage, changed } = await saveStage(
        tx,
        tournament,
        all,
        current,
        {
          entered: current.entered,
          disqualified: [...current.stage.disqualified, participant],
        },
        { actor },
      );
      forfeits += changed.filter((i) => stage.resolved[i]!.disqualification && !current.resolved[i]!.disqualification).length;
      all = all.map((s) => (s.stage.id === stage.stage.id ? stage : s));
    }
    const name = (await actorsOf(tx, tournament.soloOnly, [participant])).get(participant)?.name ?? '';
    const after: DisqualifiedSnapshot = { participant: name, forfeits };
    await recordAudit(tx, { tournamentId, actor, kind: 'disqualified', subjectId: participant, after });
    return { ok: true, stages: all.map(stageView) };
  });
}

/** A participant disqualified: once it committed, the tournament's viewers hear of the forfeits as of a result. */
export const disqualify = publishing(disqualifyParticipant, (_done, _db, tournamentId) => ({ tournamentId, kind: 'match' }));
