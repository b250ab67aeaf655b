import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Notice } from '../../../components/Notice.tsx';
import { namesOf } from '../../../components/stages/view.ts';
import { participantName } from '../../../components/participant-names.ts';
import { extendCheckIn, setCheckIn } from '../../../lib/api/check-in.ts';
import { errorMessage, HTTPError } from '../../../lib/api/client.ts';
import { getControlRoom, type CheckInEntry, type Claim, type ControlMatch, type ControlRoom as Room } from '../../../lib/api/control-room.ts';
import { answerCall } from '../../../lib/api/match-reports.ts';
import { updateMatch } from '../../../lib/api/stages.ts';
import { useHydratedStore } from '../../../lib/hooks/hydration.ts';
import { pageTimeZone, zoneName } from '../../../lib/i18n/format.ts';
import { t, type MessageKey } from '../../../lib/i18n/index.ts';
import { watchTournament } from '../../../lib/live/events.ts';
import { JITTER_MS, SETTLE_MS } from '../../../lib/live/timing.ts';
import { api } from '../../../lib/stores/api.ts';
import { $sessionLoading, $user } from '../../../lib/stores/session.ts';
import { MatchResultEditor } from '../MatchResultEditor.tsx';
import { matchLabels, matchSections, stageTitle, type MatchRow } from '../sections.ts';
import { createStagesSync } from '../sync.ts';
import { CheckInDesk } from './CheckInDesk.tsx';
import { ControlMatchCard, type CardKind } from './ControlMatchCard.tsx';

/** Success lines stay this long (SPEC §9 status messages); errors stay until the next action. */
const SUCCESS_MS = 3000;

const SECTIONS: { kind: CardKind; list: 'disputes' | 'calls' | 'awaiting' | 'ready'; title: MessageKey; summary: MessageKey }[] = [
  { kind: 'dispute', list: 'disputes', title: 'control.disputes.title', summary: 'control.summary.disputes' },
  { kind: 'call', list: 'calls', title: 'control.calls.title', summary: 'control.summary.calls' },
  { kind: 'awaiting', list: 'awaiting', title: 'control.awaiting.title', summary: 'control.summary.awaiting' },
  { kind: 'ready', list: 'ready', title: 'control.ready.title', summary: 'control.summary.ready' },
];

/**
 * The control room (issue 57): everything that waits for a tournament's organisers, live — disputes,
 * calls for help, reports waiting for the other side, ready matches, check-in — and the actions to
 * settle each right there. The tournament's event stream says when to read again (with the
 * stream's poll as the fallback); results go through the stages' own copy (`createStagesSync`) and
 * result form, so a correction shows what it resets, as in the stages modal.
 */
export default function ControlRoom({ tournamentId }: { tournamentId: string }) {
  const user = useHydratedStore($user, null);
  const sessionLoading = useHydratedStore($sessionLoading, true);
  const sync = useMemo(() => createStagesSync(api, tournamentId), [tournamentId]);
  const { data: stages } = useStore(sync.$state);
  const [room, setRoom] = useState<Room | null>(null);
  const [readAt, setReadAt] = useState(0);
  const [problem, setProblem] = useState<{ status: number; text: string } | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);

  const load = useCallback(
    () =>
      getControlRoom(api, tournamentId).then(
        (fresh) => {
          setRoom(fresh);
          setReadAt(Date.now());
          setProblem(null);
        },
        (error: unknown) => setProblem({ status: error instanceof HTTPError ? error.response.status : 0, text: errorMessage(error, t('control.loadError')) }),
      ),
    [tournamentId],
  );

  useEffect(() => {
    if (!user) return;
    void load();
    void sync.poll();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = watchTournament(tournamentId, () => {
      clearTimeout(timer);
      // The last event of a burst names the state after all of it; organisers of one event spread their reads.
      timer = setTimeout(() => {
        void load();
        void sync.poll();
      }, SETTLE_MS + Math.random() * JITTER_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [user, tournamentId, load, sync]);

  useEffect(() => {
    if (notice?.tone !== 'success') return;
    const timer = setTimeout(() => setNotice(null), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const names = useMemo(() => namesOf(room?.participants ?? []), [room]);
  const nameOf = (id: string | null) => (id ? participantName(names, id) : t('bracket.tbd'));
  /** Each match's row on its stage's board (its label, and what the result form needs), once the stages are read. */
  const rows = useMemo(() => {
    const found = new Map<string, { row: MatchRow; stageId: string; labels: Map<string, string> }>();
    if (!stages) return found;
    const stageNames = namesOf(stages.participants);
    for (const stage of stages.stages) {
      const sections = matchSections(stage, stageNames);
      const labels = matchLabels(sections);
      for (const section of sections) for (const round of section.rounds) for (const row of round.matches) found.set(row.match._id, { row, stageId: stage._id, labels });
    }
    return found;
  }, [stages]);

  if (sessionLoading) return <p className="text-muted">{t('control.loading')}</p>;
  if (!user) return <Notice>{t('control.signIn')}</Notice>;
  if (problem && (problem.status === 403 || problem.status === 401)) return <Notice tone="error">{t('control.only')}</Notice>;
  if (!room) return problem ? <Notice tone="error">{problem.text}</Notice> : <p className="text-muted">{t('control.loading')}</p>;

  async function act(run: () => Promise<{ message: string }>) {
    setBusy(true);
    setNotice(null);
    try {
      const done = await sync.change(run);
      setNotice({ tone: 'success', text: done.message });
    } catch (error) {
      setNotice({ tone: 'error', text: t('control.failed', { message: errorMessage(error, t('control.loadError')) }) });
    } finally {
      setBusy(false);
      await load();
    }
  }

  const accept = (item: ControlMatch, claim: Claim) =>
    act(() =>
      updateMatch(api, item.match._id, {
        scoreA: claim.scoreA ?? 0,
        scoreB: claim.scoreB ?? 0,
        ...(claim.games.length > 0 ? { games: claim.games } : {}),
        version: item.match.version,
      }),
    );
  const label = (item: ControlMatch) => {
    const row = rows.get(item.match._id);
    const stage = stageTitle(item.stage);
    return row ? `${stage} · ${row.row.label}` : stage;
  };
  const checkInSet = (entry: CheckInEntry, checkedIn: boolean) => act(() => setCheckIn(api, tournamentId, checkedIn, { applicationId: entry.applicationId }));
  const extend = (closesAt: string) => act(() => extendCheckIn(api, tournamentId, closesAt));

  const open = editing ? rows.get(editing) : undefined;
  const openStage = open && stages?.stages.find((s) => s._id === open.stageId);
  const missing = room.checkIn?.entries.filter((e) => e.status === 'approved' && !e.checkedInAt).length ?? 0;
  const waiting = room.disputes.length + room.calls.length + room.awaiting.length;

  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-muted">
        {t('control.intro')} {t('control.times', { zone: zoneName(pageTimeZone()) })}
      </p>
      <nav aria-label={t('control.heading')} className="flex flex-wrap gap-2">
        {SECTIONS.map(({ list, summary }) => (
          <a key={list} href={`#control-${list}`} className={`rounded-full px-3 py-1 text-sm font-semibold ${room[list].length > 0 && list !== 'ready' ? 'bg-danger text-white' : 'bg-surface-2'}`}>
            {t(summary)} · {room[list].length}
          </a>
        ))}
        {room.checkIn && (
          <a href="#control-check-in" className={`rounded-full px-3 py-1 text-sm font-semibold ${missing > 0 ? 'bg-warning text-black' : 'bg-surface-2'}`}>
            {t('control.summary.checkIn')} · {missing}
          </a>
        )}
      </nav>
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      {!room.tournament.drawn && <Notice>{t('control.notDrawn')}</Notice>}
      {room.tournament.drawn && waiting === 0 && <Notice tone="success">{t('control.allClear')}</Notice>}

      <div className="grid items-start gap-5 lg:grid-cols-2">
        <div className="flex flex-col gap-5">
          {SECTIONS.filter(({ list }) => list !== 'ready').map(({ kind, list, title }) =>
            room[list].length === 0 ? null : (
              <section key={list} id={`control-${list}`} aria-labelledby={`control-${list}-title`} className="flex scroll-mt-6 flex-col gap-3">
                <h2 id={`control-${list}-title`} className="text-lg font-bold">
                  {t(title)} <span className="text-muted">· {room[list].length}</span>
                </h2>
                {kind === 'dispute' && <p className="text-sm text-muted">{t('control.disputes.hint')}</p>}
                <ul className="flex flex-col gap-3">
                  {room[list].map((item) => (
                    <ControlMatchCard
                      key={item.match._id}
                      item={item}
                      kind={kind}
                      label={label(item)}
                      nameOf={nameOf}
                      now={readAt}
                      busy={busy}
                      onAccept={(claim) => void accept(item, claim)}
                      onEdit={() => setEditing(item.match._id)}
                      onAnswer={() => void act(() => answerCall(api, item.match._id))}
                    />
                  ))}
                </ul>
              </section>
            ),
          )}
        </div>
        <div className="flex flex-col gap-5">
          {room.checkIn && (
            <div id="control-check-in" className="scroll-mt-6">
              <CheckInDesk key={room.checkIn.closesAt} checkIn={room.checkIn} drawn={room.tournament.drawn} busy={busy} onSet={(e, on) => void checkInSet(e, on)} onExtend={(at) => void extend(at)} />
            </div>
          )}
          {room.tournament.drawn && (
            <section id="control-ready" aria-labelledby="control-ready-title" className="flex scroll-mt-6 flex-col gap-3">
              <h2 id="control-ready-title" className="text-lg font-bold">
                {t('control.ready.title')} <span className="text-muted">· {room.ready.length}</span>
              </h2>
              {room.ready.length === 0 ? (
                <p className="text-sm text-muted">{t('control.ready.none')}</p>
              ) : (
                <ul className="flex flex-col gap-3">
                  {room.ready.map((item) => (
                    <ControlMatchCard
                      key={item.match._id}
                      item={item}
                      kind="ready"
                      label={label(item)}
                      nameOf={nameOf}
                      now={readAt}
                      busy={busy}
                      onAccept={() => undefined}
                      onEdit={() => setEditing(item.match._id)}
                      onAnswer={() => undefined}
                    />
                  ))}
                </ul>
              )}
            </section>
          )}
        </div>
      </div>

      {open && openStage && stages && (
        <MatchResultEditor
          key={`${open.row.match._id}-${open.row.match.version}`}
          sync={sync}
          row={open.row}
          stage={openStage}
          names={namesOf(stages.participants)}
          labels={open.labels}
          open
          onCancel={() => setEditing(null)}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            setNotice({ tone: 'success', text: message });
            void load();
          }}
        />
      )}
    </div>
  );
}
