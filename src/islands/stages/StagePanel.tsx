import { useId, useState } from 'react';
import { Crown } from '../../components/Crown.tsx';
import { Notice } from '../../components/Notice.tsx';
import { ReportStateBadge } from '../../components/ReportStateBadge.tsx';
import { placementRows, recordText, signed, tableOrder, groupTitle, thresholdsLine, type Names } from '../../components/stages/view.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { disqualify, nextRound, type StageView } from '../../lib/api/stages.ts';
import { thresholdsOf } from '../../lib/domain/stage/format.ts';
import { winsNeeded } from '../../lib/domain/stage/result.ts';
import { formatDateTime, pageTimeZone } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { MatchResultEditor } from './MatchResultEditor.tsx';
import { LobbyGames } from './LobbyGames.tsx';
import { ScheduleForm } from './ScheduleForm.tsx';
import { hasTables, matchLabels, matchSections, nameIn, type MatchRow } from './sections.ts';
import type { StagesSync } from './sync.ts';

interface Props {
  sync: StagesSync;
  stage: StageView;
  names: Names;
  tournamentId: string;
  busy: boolean;
  onChanged: () => void;
}

const statusTone = { completed: 'border-line text-muted', ready: 'border-success text-success', waiting: 'border-warning text-warning' } as const;

/**
 * One stage in the admin's modal (issue 21): its places once known, each group's table, the Swiss
 * «next round» (or word that rounds pair themselves) and disqualification, and every match by
 * group, side and round with an editor.
 */
export function StagePanel({ sync, stage, names, tournamentId, busy, onChanged }: Props) {
  const [editing, setEditing] = useState<string | null>(null);
  const [editorOpen, setEditorOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const sections = matchSections(stage, names);
  const labels = matchLabels(sections);
  const bestOf = stage.settings.bestOf ?? 1;
  const places = placementRows(stage.placements, names);
  const champion = stage.complete ? places.find((p) => p.from === 1 && p.place === '1') : undefined;
  const editingRow = sections.flatMap((s) => s.rounds.flatMap((r) => r.matches)).find((m) => m.match._id === editing);
  // Only disputes reach the organiser (issue 22): they are counted at the top and marked below.
  const disputed = stage.matches.filter((m) => m.reportState === 'disputed').length;
  const thresholds = stage.format === 'swiss' ? thresholdsLine(stage.settings) : null;

  async function pairNext() {
    setProblem(null);
    await sync.change(async () => {
      try {
        const answer = await nextRound(api, tournamentId, stage._id);
        sync.say({ tone: 'success', text: answer.message });
        onChanged();
      } catch (error) {
        setProblem(errorMessage(error, t('stageAdmin.nextRoundError')));
      }
    });
  }

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 id={`${id}-title`} className="text-base font-bold">
          {t(`stages.format.${stage.format}`)}
        </h3>
        {bestOf > 1 && <span className="text-sm text-muted">{t('stages.bestOf', { wins: winsNeeded(bestOf), bestOf })}</span>}
        <span className={`text-sm ${stage.complete ? 'text-success' : 'text-muted'}`}>{t(stage.complete ? 'stages.complete' : 'stages.ongoing')}</span>
        {thresholds && <span className="basis-full text-sm">{thresholds}</span>}
      </header>

      {champion && (
        <p className="flex items-center gap-2 rounded-card border border-accent p-3 font-semibold text-accent">
          <Crown />
          {t('stageAdmin.champion', { name: champion.name })}
        </p>
      )}

      {stage.format === 'swiss' &&
        !stage.complete &&
        (stage.settings.autoPair ? (
          <p className="text-sm text-muted">{t('stageAdmin.autoPaired')}</p>
        ) : (
          <div className="flex flex-col gap-2">
            <button type="button" className="btn-primary min-h-11 self-start" disabled={busy} onClick={() => void pairNext()}>
              {t('stageAdmin.nextRound')}
            </button>
          </div>
        ))}
      {problem && <Notice tone="error">{problem}</Notice>}
      {disputed > 0 && <Notice tone="error">{t('stageAdmin.disputed', { count: disputed })}</Notice>}

      {hasTables(stage) && (
        <div className="grid gap-3 lg:grid-cols-2">
          {stage.groups.map((group) => (
            <Standings
              key={group.number}
              stage={stage}
              group={group}
              names={names}
              title={stage.groups.length > 1 ? groupTitle(group.number) : t('stages.standings')}
            />
          ))}
        </div>
      )}

      {places.length > 0 && (
        <details className="rounded-card border border-line p-3" open={stage.complete || undefined}>
          <summary className="cursor-pointer text-sm font-semibold">{t(stage.complete ? 'stages.placements' : 'stages.placementsSoFar')}</summary>
          <ol className="mt-2 flex flex-col gap-1 text-sm">
            {places.map((p) => (
              <li key={p.id} className="flex gap-3">
                <span className="w-10 shrink-0 text-right tabular-nums text-muted">{p.place}</span>
                <span className="min-w-0 flex-1 truncate">{p.name}</span>
              </li>
            ))}
          </ol>
        </details>
      )}

      {sections.map((section) => (
        <section key={section.key} aria-labelledby={section.title ? `${id}-${section.key}` : undefined} className="flex flex-col gap-3">
          {section.title && (
            <h4 id={`${id}-${section.key}`} className="border-b border-line pb-1 font-semibold">
              {section.title}
            </h4>
          )}
          {section.rounds.map((round) => (
            <div key={round.key} className="flex flex-col gap-2">
              <h5 className="text-sm font-semibold text-muted">{round.title}</h5>
              <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
                {round.matches.map((row) => (
                  <li key={row.match._id}>
                    <MatchItem
                      row={row}
                      onEdit={() => {
                        setEditing(row.match._id);
                        setEditorOpen(true);
                      }}
                    />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      ))}

      {stage.format === 'free_for_all' ? (
        <LobbyGames sync={sync} stage={stage} names={names} busy={busy} onChanged={onChanged} />
      ) : (
        <ScheduleForm sync={sync} stage={stage} names={names} tournamentId={tournamentId} busy={busy} onChanged={onChanged} />
      )}
      <Disqualify sync={sync} stage={stage} names={names} tournamentId={tournamentId} busy={busy} onChanged={onChanged} />

      {editingRow && (
        <MatchResultEditor
          key={editingRow.match._id}
          sync={sync}
          row={editingRow}
          stage={stage}
          names={names}
          labels={labels}
          open={editorOpen}
          onCancel={() => setEditorOpen(false)}
          onClose={() => {
            setEditorOpen(false);
            setEditing(null);
          }}
          onSaved={(message) => {
            setEditorOpen(false);
            sync.say({ tone: 'success', text: message });
            onChanged();
          }}
        />
      )}
    </section>
  );
}

function MatchItem({ row, onEdit }: { row: MatchRow; onEdit: () => void }) {
  const { match, card, label, editable } = row;
  const decided = match.status === 'completed' && !match.bye;
  return (
    <article
      aria-label={label}
      className={`flex h-full flex-col gap-1.5 rounded-card border bg-surface p-2.5 text-sm ${match.reportState === 'disputed' ? 'border-danger/70' : match.status === 'ready' ? 'border-success/60' : 'border-line'}`}
    >
      <div className="flex items-center justify-between gap-2">
        <a href={`/matches/${match._id}`} className="text-xs font-semibold" aria-label={t('stageAdmin.matchPage', { match: label })}>
          {t('stages.match', { number: card.number })}
        </a>
        <span className="flex flex-wrap justify-end gap-1">
          {match.reportState && match.status !== 'completed' && <ReportStateBadge state={match.reportState} />}
          <span className={`rounded-full border px-2 py-0.5 text-[0.7rem] leading-4 font-semibold ${statusTone[match.status]}`}>
            {t(`bracket.state.${match.status}`)}
          </span>
        </span>
      </div>
      <ul className="flex flex-col gap-0.5">
        {card.sides.map((side, i) => (
          <li
            key={i}
            className={`flex items-center gap-2 rounded-md px-1.5 py-1 ${side.result === 'winner' ? 'bg-surface-2 font-semibold text-accent' : side.id ? '' : 'text-muted italic'}`}
          >
            <span className="min-w-0 flex-1 truncate" title={side.name}>
              {side.name}
            </span>
            {side.result === 'winner' && <Crown />}
            {decided && side.score !== null && <span className="w-8 shrink-0 text-right font-semibold tabular-nums">{side.score}</span>}
          </li>
        ))}
      </ul>
      {card.forfeit && <p className="text-xs text-warning">{t('stages.forfeit', { name: card.forfeit })}</p>}
      {card.games && <p className="text-xs text-muted">{t('stages.games', { games: card.games })}</p>}
      {match.scheduledAt && (
        <p className="text-xs text-muted">
          <time dateTime={match.scheduledAt}>{formatDateTime(match.scheduledAt, { timeZone: pageTimeZone() })}</time>
        </p>
      )}
      {match.comment && <p className="text-xs break-words whitespace-pre-line text-muted">{match.comment}</p>}
      {editable && (
        <button
          type="button"
          className="btn-ghost mt-auto min-h-10 self-start px-3 py-1 text-xs"
          aria-label={t(decided ? 'stageAdmin.correctMatch' : 'stageAdmin.enterMatch', { match: label })}
          onClick={onEdit}
        >
          {t(decided ? 'stageAdmin.correct' : 'stageAdmin.enter')}
        </button>
      )}
    </article>
  );
}

type StandingRow = StageView['groups'][number]['standings'][number];

/** The table's columns after the name (Buchholz only in Swiss), as the bracket page's tables have them. */
const COLUMNS = [
  { key: 'played', value: (r: StandingRow) => String(r.played) },
  { key: 'wins', value: (r: StandingRow) => String(r.wins) },
  { key: 'draws', value: (r: StandingRow) => String(r.draws) },
  { key: 'losses', value: (r: StandingRow) => String(r.losses) },
  { key: 'difference', value: (r: StandingRow) => signed(r.scoreDifference) },
  { key: 'buchholz', value: (r: StandingRow) => String(r.buchholz) },
  { key: 'points', value: (r: StandingRow) => String(r.points) },
] as const;
/** A Swiss with thresholds (issue 59): the record and the difficulty rank it, not points. */
const RECORD_COLUMNS = [
  { key: 'record', value: recordText },
  { key: 'difficulty', value: (r: StandingRow) => signed(r.buchholz) },
] as const;

/** Which columns a stage's tables have: a GSL group's are its wins and losses. */
function columnsOf(stage: StageView) {
  if (stage.format === 'swiss' && thresholdsOf(stage.settings)) return RECORD_COLUMNS;
  if (stage.format === 'gsl') return COLUMNS.filter((column) => column.key === 'wins' || column.key === 'losses');
  return COLUMNS.filter((column) => stage.format === 'swiss' || column.key !== 'buchholz');
}

function Standings({ stage, group, names, title }: { stage: StageView; group: StageView['groups'][number]; names: Names; title: string }) {
  const rows = new Map(group.standings.map((r) => [r.participant, r]));
  const columns = columnsOf(stage);
  return (
    <div className="overflow-x-auto rounded-card border border-line">
      <table className="w-full text-sm">
        <caption className="px-3 pt-2 text-left font-semibold">{t('stageAdmin.tableOf', { title })}</caption>
        <thead>
          <tr className="text-xs text-muted">
            <th scope="col" className="px-1.5 py-1.5 text-right sm:px-2">
              <abbr title={t('stages.col.rank')}>{t('stages.col.rankShort')}</abbr>
            </th>
            <th scope="col" className="px-1.5 py-1.5 text-left sm:px-2">
              {t('stages.col.name')}
            </th>
            {columns.map((column) => (
              <th key={column.key} scope="col" className="px-1.5 py-1.5 text-right sm:px-2">
                <abbr title={t(`stages.col.${column.key}`)}>{t(`stages.col.${column.key}Short`)}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {tableOrder(group).map((participant, i) => {
            const row = rows.get(participant);
            const out = stage.disqualified.includes(participant);
            return (
              <tr key={participant} className="border-t border-line">
                <td className="px-1.5 py-1.5 text-right tabular-nums sm:px-2">{row?.rank ?? i + 1}</td>
                <th scope="row" className="px-1.5 py-1.5 text-left font-medium sm:px-2">
                  {/* Narrow screens: long names are cut so the points column stays in view. */}
                  <span className="block max-w-24 truncate min-[400px]:max-w-40 sm:max-w-56" title={nameIn(names, participant)}>
                    {nameIn(names, participant)}
                  </span>
                  {out && <span className="block text-xs text-danger">{t('stageAdmin.disqualifiedMark')}</span>}
                  {row?.outcome && (
                    <span className={`block text-xs ${row.outcome === 'advanced' ? 'text-success' : 'text-muted'}`}>{t(`stages.outcome.${row.outcome}`)}</span>
                  )}
                </th>
                {columns.map((column) => (
                  <td key={column.key} className={`px-1.5 py-1.5 text-right tabular-nums sm:px-2 ${column.key === 'points' ? 'font-semibold' : ''}`}>
                    {row ? column.value(row) : '0'}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Disqualify({
  sync,
  stage,
  names,
  tournamentId,
  busy,
  onChanged,
}: {
  sync: StagesSync;
  stage: StageView;
  names: Names;
  tournamentId: string;
  busy: boolean;
  onChanged: () => void;
}) {
  const candidates = stage.seeds.filter((s): s is string => s !== null && !stage.disqualified.includes(s));
  const [chosen, setChosen] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  if (stage.complete || candidates.length === 0) return null;
  const picked = candidates.includes(chosen) ? chosen : '';

  async function confirmDisqualify() {
    setConfirming(false);
    setProblem(null);
    await sync.change(async () => {
      try {
        const answer = await disqualify(api, tournamentId, picked);
        sync.say({ tone: 'success', text: answer.message });
        setChosen('');
        onChanged();
      } catch (error) {
        setProblem(errorMessage(error, t('stageAdmin.disqualifyError')));
      }
    });
  }

  return (
    <details className="rounded-card border border-line p-3">
      <summary className="cursor-pointer text-sm font-semibold">{t('stageAdmin.disqualifyTitle')}</summary>
      <div className="mt-3 flex flex-col gap-3 text-sm">
        <div className="flex flex-col gap-1 font-medium">
          <label htmlFor={`${id}-who`}>{t('stageAdmin.disqualifyWho')}</label>
          <select
            id={`${id}-who`}
            className="field min-h-11"
            value={picked}
            onChange={(event) => {
              setChosen(event.target.value);
              setConfirming(false);
            }}
          >
            <option value="">{t('stageAdmin.choose')}</option>
            {candidates.map((c) => (
              <option key={c} value={c}>
                {nameIn(names, c)}
              </option>
            ))}
          </select>
        </div>
        {confirming && picked ? (
          <div role="alert" className="flex flex-col gap-3 rounded-lg border border-danger p-3">
            <p className="font-semibold text-danger">{t('stageAdmin.disqualifyConfirm', { name: nameIn(names, picked) })}</p>
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="btn-ghost min-h-11" onClick={() => setConfirming(false)}>
                {t('stageAdmin.cancel')}
              </button>
              <button type="button" className="btn-primary min-h-11" disabled={busy} onClick={() => void confirmDisqualify()}>
                {t('stageAdmin.disqualifyYes')}
              </button>
            </div>
          </div>
        ) : (
          <button type="button" className="btn-ghost min-h-11 self-start text-danger" disabled={!picked || busy} onClick={() => setConfirming(true)}>
            {t('stageAdmin.disqualify')}
          </button>
        )}
        {problem && <Notice tone="error">{problem}</Notice>}
      </div>
    </details>
  );
}
