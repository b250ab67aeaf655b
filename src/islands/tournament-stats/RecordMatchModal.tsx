import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { getRecordForm, recordMatch, type MatchRecorded, type ParticipantType, type RecordForm, type RecordMatchInput, type TournamentStats } from '../../lib/api/tournament-stats.ts';
import { readCount, winnerSide } from '../../lib/domain/match-result.ts';
import { participantTypeOf } from '../../lib/domain/participant.ts';
import { t } from '../../lib/i18n/index.ts';
import { translateStatField } from '../../lib/i18n/stat-texts.ts';
import { api } from '../../lib/stores/api.ts';

interface SideState {
  type: ParticipantType;
  /** The chosen player's or team's id; empty until chosen. */
  id: string;
  score: string;
  stats: Record<string, string>;
}

const SIDES = [1, 2] as const;

const emptySide = (type: ParticipantType): SideState => ({ type, id: '', score: '', stats: {} });

interface Props {
  tournament: TournamentStats;
  onClose: () => void;
  onRecorded: (result: MatchRecorded) => void;
}

/**
 * The record-match modal (SPEC §2, §5): participant type and participant for each side (from the
 * tournament's approved participants; changing the type clears the choice), the scores, and the
 * game's numeric stats per side. Typed numbers are read as whole numbers, anything else as 0;
 * the winner is the higher score.
 */
export function RecordMatchModal({ tournament, onClose, onRecorded }: Props) {
  const idPrefix = useId();
  const [form, setForm] = useState<RecordForm | null>(null);
  const [loadError, setLoadError] = useState('');
  const defaultType = participantTypeOf(tournament.soloOnly);
  const [sides, setSides] = useState<[SideState, SideState]>([emptySide(defaultType), emptySide(defaultType)]);
  const [duration, setDuration] = useState('');
  const [problem, setProblem] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    getRecordForm(api, tournament._id).then(
      (result) => live && setForm(result),
      (error: unknown) => live && setLoadError(errorMessage(error, t('stats.formError'))),
    );
    return () => {
      live = false;
    };
  }, [tournament._id]);

  const candidates = (type: ParticipantType) =>
    form
      ? type === 'user'
        ? form.participants.users.map((u) => ({ id: u._id, name: u.username }))
        : form.participants.teams.map((team) => ({ id: team._id, name: team.name }))
      : [];
  const nameOf = (side: SideState) => candidates(side.type).find((c) => c.id === side.id)?.name ?? '';

  function update(index: 0 | 1, change: Partial<SideState>) {
    setProblem('');
    setSides((current) => {
      const next: [SideState, SideState] = [...current];
      next[index] = { ...current[index], ...change };
      return next;
    });
  }

  const scores = [readCount(sides[0].score), readCount(sides[1].score)] as const;
  const chosen = sides[0].id !== '' && sides[1].id !== '';
  const winning = winnerSide(scores[0], scores[1]);
  const winner = chosen && winning ? nameOf(sides[winning - 1]!) : '';

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!chosen) return setProblem(t('stats.fillParticipants'));
    if (!winning) return setProblem(t('stats.scoreEqual'));
    const statsOf = (side: SideState) =>
      Object.fromEntries(
        Object.entries(side.stats)
          .filter(([, raw]) => raw.trim() !== '')
          .map(([field, raw]) => [field, readCount(raw)]),
      );
    const body: RecordMatchInput = {
      tournamentId: tournament._id,
      participant1Type: sides[0].type,
      participant1Id: sides[0].id,
      participant1: nameOf(sides[0]),
      participant2Type: sides[1].type,
      participant2Id: sides[1].id,
      participant2: nameOf(sides[1]),
      score1: scores[0],
      score2: scores[1],
      winner,
      gameSpecificStats: { participant1: statsOf(sides[0]), participant2: statsOf(sides[1]) },
      ...(duration.trim() ? { duration: readCount(duration) } : {}),
    };
    setSaving(true);
    try {
      onRecorded(await recordMatch(api, tournament._id, body));
    } catch (error) {
      setProblem(errorMessage(error, t('stats.recordError')));
    } finally {
      setSaving(false);
    }
  }

  const noParticipants = form && form.participants.users.length === 0 && form.participants.teams.length === 0;

  return (
    <Modal open title={t('stats.modalTitle', { title: tournament.title })} onClose={onClose}>
      {!form && !loadError && <p className="text-sm text-muted">{t('stats.formLoading')}</p>}
      {loadError && <Notice tone="error">{t('manage.error', { message: loadError })}</Notice>}
      {noParticipants && <Notice tone="error">{t('stats.noParticipants')}</Notice>}
      {form && !noParticipants && (
        <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
          <div className="grid gap-3 sm:grid-cols-2">
            {SIDES.map((n) => {
              const index = (n - 1) as 0 | 1;
              const side = sides[index];
              const other = sides[n === 1 ? 1 : 0];
              const options = candidates(side.type);
              const base = `${idPrefix}-side${n}`;
              return (
                <fieldset key={n} className="flex min-w-0 flex-col gap-2 rounded-lg border border-line p-3">
                  <legend className="px-1 text-sm font-semibold">{t('stats.side', { n })}</legend>
                  <div className="flex flex-col gap-1 text-sm font-medium">
                    <label htmlFor={`${base}-type`}>{t('stats.participantType')}</label>
                    <select
                      id={`${base}-type`}
                      className="field"
                      value={side.type}
                      // A new type means another list: the previous choice no longer fits (SPEC §5).
                      onChange={(event) => update(index, { type: event.target.value === 'team' ? 'team' : 'user', id: '' })}
                    >
                      <option value="user">{t('stats.typeUser')}</option>
                      <option value="team">{t('stats.typeTeam')}</option>
                    </select>
                  </div>
                  <div className="flex flex-col gap-1 text-sm font-medium">
                    <label htmlFor={`${base}-who`}>{t('stats.participant')}</label>
                    <select id={`${base}-who`} className="field" value={side.id} onChange={(event) => update(index, { id: event.target.value })}>
                      <option value="">{options.length > 0 ? t('stats.choose') : t('stats.noneOfType')}</option>
                      {options.map((c) => (
                        <option key={c.id} value={c.id} disabled={other.type === side.type && other.id === c.id}>
                          {c.name}
                        </option>
                      ))}
                    </select>
                  </div>
                  <label htmlFor={`${base}-score`} className="flex flex-col gap-1 text-sm font-medium">
                    {t('stats.score')}
                    <input
                      id={`${base}-score`}
                      className="field"
                      type="text"
                      inputMode="numeric"
                      autoComplete="off"
                      value={side.score}
                      placeholder="0"
                      onChange={(event) => update(index, { score: event.target.value })}
                    />
                  </label>
                </fieldset>
              );
            })}
          </div>

          <section aria-labelledby={`${idPrefix}-details`} className="flex flex-col gap-2">
            <h3 id={`${idPrefix}-details`} className="text-sm font-semibold">
              {t('stats.details')}
            </h3>
            {form.statsFields.length === 0 ? (
              <p className="text-sm text-muted">{t('stats.noFields')}</p>
            ) : (
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-left text-xs text-muted">
                    <th scope="col" className="pb-1 font-medium">
                      <span className="sr-only">{t('stats.details')}</span>
                    </th>
                    {SIDES.map((n) => (
                      <th key={n} scope="col" className="w-16 max-w-16 pb-1 pl-2 font-medium sm:w-28 sm:max-w-28">
                        <span className="block truncate">{nameOf(sides[n - 1]!) || t('stats.side', { n })}</span>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {form.statsFields.map((stored) => translateStatField(stored)).map((field) => (
                    <tr key={field.fieldName}>
                      <th scope="row" className="py-1 pr-2 text-left font-normal">
                        <span aria-hidden="true">{field.icon}</span> {field.displayName}
                        {field.fieldType === 'percentage' && <span className="text-muted"> %</span>}
                      </th>
                      {SIDES.map((n) => {
                        const index = (n - 1) as 0 | 1;
                        return (
                          <td key={n} className="py-1 pl-2">
                            <input
                              className="field px-2 py-1"
                              type="text"
                              inputMode="numeric"
                              autoComplete="off"
                              aria-label={`${field.displayName} — ${nameOf(sides[index]) || t('stats.side', { n })}`}
                              value={sides[index].stats[field.fieldName] ?? ''}
                              placeholder="0"
                              onChange={(event) => update(index, { stats: { ...sides[index].stats, [field.fieldName]: event.target.value } })}
                            />
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>

          <label htmlFor={`${idPrefix}-duration`} className="flex flex-col gap-1 text-sm font-medium sm:max-w-60">
            {t('stats.duration')}
            <input
              id={`${idPrefix}-duration`}
              className="field"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              value={duration}
              onChange={(event) => setDuration(event.target.value)}
            />
          </label>

          {winner && <p className="text-sm font-semibold text-accent">{t('stats.winnerPreview', { name: winner })}</p>}
          {problem && <Notice tone="error">{t('manage.error', { message: problem })}</Notice>}

          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-ghost" onClick={onClose}>
              {t('stats.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={saving}>
              {saving ? t('stats.saving') : t('stats.save')}
            </button>
          </div>
        </form>
      )}
      {(loadError || noParticipants) && (
        <button type="button" className="btn-ghost self-end" onClick={onClose}>
          {t('stats.cancel')}
        </button>
      )}
    </Modal>
  );
}
