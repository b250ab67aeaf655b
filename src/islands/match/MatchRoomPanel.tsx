import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import { errorMessage } from '../../lib/api/client.ts';
import { checkInToMatch, getRoom, LOBBY_MAX, putLobby, type RoomView } from '../../lib/api/match-room.ts';
import type { VetoView } from '../../lib/api/veto.ts';
import { formatDateTime, pageTimeZone } from '../../lib/i18n/format.ts';
import { t, type MessageKey } from '../../lib/i18n/index.ts';
import { onPageEvent } from '../../lib/live/events.ts';
import { api } from '../../lib/stores/api.ts';
import { $user } from '../../lib/stores/session.ts';
import { TextAreaField } from '../../components/Field.tsx';
import { $checkInPending, $match, notInRoom } from './refresh.ts';
import { readVeto } from './VetoControls.tsx';

export interface MatchRoomProps {
  matchId: string;
  tournamentId: string;
  /** The sides' names as the page shows them. */
  sides: { a: string; b: string };
}


/** The one thing the reader's side is to do now, in the order a match asks for them. */
function nextThing(room: RoomView, veto: VetoView | null, state: ReturnType<typeof $match.get>, userId: string | undefined): MessageKey | null {
  const side = room.side;
  if (!side || !state || state.match.status !== 'ready') return null;
  const { checkIn } = room;
  if (checkIn && !checkIn.outcome && !checkIn[side]) return 'room.next.checkIn';
  const acts = userId !== undefined && state.actors[side] === userId;
  if (veto?.next) return veto.next.slot === side && acts ? 'room.next.veto' : 'room.next.wait';
  if (state.report?.state === 'reported') return state.report.side !== side && acts ? 'room.next.confirm' : 'room.next.wait';
  if (checkIn && !checkIn.outcome) return 'room.next.wait';
  return acts ? 'room.next.report' : null;
}

/** The time left until `by`, for the timer: «4:05», «1:51:31». */
function left(by: string, now: number): string | null {
  const ms = Date.parse(by) - now;
  if (ms <= 0) return null;
  const seconds = Math.ceil(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const rest = `${String(Math.floor((seconds % 3600) / 60)).padStart(hours ? 2 : 1, '0')}:${String(seconds % 60).padStart(2, '0')}`;
  return hours ? `${hours}:${rest}` : rest;
}

/**
 * The room's top for its people: what to do now, the check-in (a big button, the deadline and a
 * running timer, who is in), and the lobby details with a copy button, and a form for whoever sets
 * them. Read again on every change of the match the page hears.
 */
export default function MatchRoomPanel({ matchId, tournamentId, sides }: MatchRoomProps) {
  const [room, setRoom] = useState<RoomView | null>(null);
  const [veto, setVeto] = useState<VetoView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [copied, setCopied] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const state = useStore($match);
  const user = useStore($user);

  // Bumped to read the room again: after the reader's own action, and once the check-in's time ran out.
  const [reads, setReads] = useState(0);
  const read = useCallback(() => setReads((n) => n + 1), []);

  useEffect(() => {
    let live = true;
    const load = () =>
      Promise.all([getRoom(api, matchId), readVeto(matchId)])
        .then(([fresh, vetoNow]) => {
          if (!live) return;
          setRoom(fresh);
          setVeto(vetoNow);
        })
        .catch((error: unknown) => {
          if (!live) return;
          if (notInRoom(error)) setRoom(null);
          else setProblem(errorMessage(error, t('room.loadError')));
        });
    void load();
    const stop = onPageEvent(tournamentId, (event) => {
      if (event.matchId === undefined || event.matchId === matchId) void load();
    });
    return () => {
      live = false;
      stop();
    };
  }, [tournamentId, matchId, reads]);

  const by = room?.checkIn?.by ?? null;
  const open = Boolean(room?.checkIn && !room.checkIn.outcome && by);
  // The report form waits with the match: it shows once both sides are in.
  useEffect(() => $checkInPending.set(open), [open]);
  useEffect(() => {
    if (!open || !by) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      // The end of the time is the server's to settle: the room is read again once it passed.
      if (Date.parse(by) <= Date.now()) {
        clearInterval(timer);
        read();
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [open, by, read]);
  const running = by ? left(by, now) : null;

  if (!room) return problem ? <p className="text-sm text-danger">{problem}</p> : null;

  const zone = pageTimeZone();
  const name = (slot: 'a' | 'b') => (slot === 'a' ? sides.a : sides.b);
  const next = nextThing(room, veto, state, user?._id);
  const { checkIn, lobby, side } = room;

  async function act(work: () => Promise<{ message: string }>) {
    setBusy(true);
    setProblem(null);
    setSaid(null);
    try {
      setSaid((await work()).message);
      read();
      return true;
    } catch (error) {
      setProblem(errorMessage(error, t('room.loadError')));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function saveLobby(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('text') ?? '');
    if (await act(() => putLobby(api, matchId, { text }))) setEditing(false);
  }

  async function copy() {
    await navigator.clipboard?.writeText(lobby.text).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }

  return (
    <section aria-labelledby="room-title" className="card flex flex-col gap-4 border-primary" data-room>
      <h2 id="room-title" className="text-lg font-bold">
        {next ? t(next) : t('room.title')}
      </h2>

      {checkIn && (side || room.organiser) && (
        <div className="flex flex-col gap-2" data-check-in>
          <h3 className="text-sm font-semibold">{t('room.checkIn.title')}</h3>
          {checkIn.outcome === 'forfeit' || checkIn.outcome === 'noShow' ? (
            <p className="text-sm">{t(checkIn.outcome === 'forfeit' ? 'room.checkIn.forfeit' : 'room.checkIn.noShow')}</p>
          ) : checkIn.outcome === 'both' ? (
            <p className="text-sm font-semibold text-success">{t('room.checkIn.both')}</p>
          ) : (
            by && (
              <>
                <p className="text-sm">
                  <time dateTime={by}>{t('room.checkIn.by', { time: formatDateTime(by, { timeZone: zone }) })}</time>
                  {' · '}
                  <span className="font-semibold tabular-nums" role="timer" aria-live="off">
                    {running ? t('room.checkIn.left', { time: running }) : t('room.checkIn.over')}
                  </span>
                </p>
                {!side ? null : !checkIn[side] ? (
                  <button
                    type="button"
                    className="btn-primary min-h-12 text-base"
                    disabled={busy || !running}
                    onClick={() => void act(() => checkInToMatch(api, matchId))}
                  >
                    {t('room.checkIn.button')}
                  </button>
                ) : (
                  <p className="text-sm">{t('room.checkIn.waiting')}</p>
                )}
              </>
            )
          )}
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted">
            {(['a', 'b'] as const).map((slot) => (
              <li key={slot}>{t('room.checkIn.side', { name: name(slot), state: t(checkIn[slot] ? 'room.checkIn.in' : 'room.checkIn.out') })}</li>
            ))}
          </ul>
        </div>
      )}

      <div className="flex flex-col gap-2" data-lobby>
        <h3 className="text-sm font-semibold">{t('room.lobby.title')}</h3>
        {lobby.text ? (
          <>
            <pre className="rounded-lg border border-line bg-surface-2 px-3 py-2 font-mono text-sm whitespace-pre-wrap wrap-anywhere">{lobby.text}</pre>
            <div className="flex flex-wrap items-center gap-3">
              <button type="button" className="btn-ghost min-h-10" onClick={() => void copy()}>
                {copied ? t('room.lobby.copied') : t('room.lobby.copy')}
              </button>
              {lobby.by && lobby.at && (
                <span className="text-xs text-muted">{t('room.lobby.by', { name: lobby.by, time: formatDateTime(lobby.at, { timeZone: zone }) })}</span>
              )}
            </div>
          </>
        ) : (
          <p className="text-sm text-muted">{t(lobby.editable || !side ? 'room.lobby.empty' : 'room.lobby.emptyHost')}</p>
        )}
        {lobby.editable &&
          (editing ? (
            <form onSubmit={(e) => void saveLobby(e)} className="flex flex-col gap-2">
              <TextAreaField label={t('room.lobby.label')} id={`lobby-${matchId}`} name="text" rows={3} limit={LOBBY_MAX} defaultValue={lobby.text} />
              <button type="submit" className="btn-primary min-h-10 self-start" disabled={busy}>
                {t('room.lobby.save')}
              </button>
            </form>
          ) : (
            <button type="button" className="btn-ghost min-h-10 self-start" onClick={() => setEditing(true)}>
              {t('room.lobby.edit')}
            </button>
          ))}
      </div>

      <div aria-live="polite" className="text-sm empty:hidden">
        {problem ? <span className="text-danger">{problem}</span> : said}
      </div>
    </section>
  );
}
