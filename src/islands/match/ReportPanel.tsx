import { useEffect, useState, type SubmitEvent } from 'react';
import { Field, TextAreaField } from '../../components/Field.tsx';
import { GameScoreRows } from '../../components/GameScoreRows.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { DISPUTE_REASON_MAX } from '../../lib/api/limits.ts';
import { callOrganisers, confirmReport, disputeReport, reportScore } from '../../lib/api/match-reports.ts';
import type { MatchState } from '../../lib/api/stages.ts';
import { reportFormStart, scoreText } from '../../lib/domain/match-report.ts';
import type { Slot } from '../../lib/domain/stage/format.ts';
import { formatDateTime } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { onPageEvent } from '../../lib/live/events.ts';
import { refresh } from './refresh.ts';
import { readVeto } from './VetoControls.tsx';

interface Props {
  state: MatchState;
  /** The side the signed-in user acts for. */
  side: Slot;
}

/**
 * What a side of a ready match can do (issue 22): report the score (again, to change a waiting
 * report of theirs), or answer the opponent's report — confirm it, or dispute it with a reason.
 * Each action refreshes the page's match; a refusal shows the server's words.
 */
export default function ReportPanel({ state, side }: Props) {
  const { match, report } = state;
  const name = (slot: Slot) => state.participants.find((p) => p._id === match[slot])?.name ?? t('matchPage.tbd');
  // A change of one's waiting report starts from what was sent, not from blank fields.
  const start = reportFormStart(report, side, match.bestOf);
  const startKey = JSON.stringify(start);
  const [startedFrom, setStartedFrom] = useState(startKey);
  const [scoreA, setScoreA] = useState(start.scoreA);
  const [scoreB, setScoreB] = useState(start.scoreB);
  // Best-of-N (issue 57): each game's (map's) score; the series score follows from the games typed.
  const [games, setGames] = useState(start.games);
  if (startedFrom !== startKey) {
    // The report changed under the form (sent here or in another tab, or the match was reset): the fields follow it.
    setStartedFrom(startKey);
    setScoreA(start.scoreA);
    setScoreB(start.scoreB);
    setGames(start.games);
  }
  const typed = games.filter((g) => g.a !== '' && g.b !== '').map((g) => ({ a: Number(g.a), b: Number(g.b) }));
  const fromGames = typed.length > 0 ? { a: typed.filter((g) => g.a > g.b).length, b: typed.filter((g) => g.b > g.a).length } : null;
  const [reason, setReason] = useState('');
  const [disputing, setDisputing] = useState(false);
  const [calling, setCalling] = useState(false);
  const [callReason, setCallReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  // The maps its veto chose (issue 58): each game's row says which it was played on.
  const [maps, setMaps] = useState<string[]>([]);
  useEffect(() => {
    if (match.bestOf <= 1) return;
    const read = () => void readVeto(match._id).then((veto) => setMaps(veto?.maps.map((m) => m.map) ?? []));
    read();
    return onPageEvent(state.tournament._id, (event) => {
      if (event.kind === 'veto' && event.matchId === match._id) read();
    });
  }, [match._id, match.bestOf, state.tournament._id]);

  if (match.status === 'completed') return null;
  const reporting = match.status === 'ready' && report?.state !== 'disputed';
  const answering = report?.state === 'reported' && report.side !== side;
  const deadline = report?.confirmBy ? formatDateTime(report.confirmBy, { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }) : '';

  async function act(run: () => Promise<{ message: string }>) {
    setBusy(true);
    setMessage(null);
    try {
      const done = await run();
      setMessage({ text: done.message, error: false });
      setDisputing(false);
      setReason('');
      setCalling(false);
      setCallReason('');
    } catch (error) {
      setMessage({ text: errorMessage(error, t('reportForm.error')), error: true });
    } finally {
      setBusy(false);
      await refresh(match._id, true);
    }
  }

  function send(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = fromGames
      ? { scoreA: fromGames.a, scoreB: fromGames.b, games: typed, version: match.version }
      : { scoreA: Number(scoreA), scoreB: Number(scoreB), version: match.version };
    void act(() => reportScore(api, match._id, body));
  }

  function sendDispute(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void act(() => disputeReport(api, match._id, { reason, version: match.version }));
  }

  function sendCall(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void act(() => callOrganisers(api, match._id, callReason));
  }

  // Something wrong the score cannot say (no opponent in the lobby, a crash): the organisers' control room hears it (issue 57).
  const call = calling ? (
    <form className="flex flex-col gap-2" onSubmit={sendCall}>
      <TextAreaField
        id="call-reason"
        label={t('reportForm.callReason')}
        limit={DISPUTE_REASON_MAX}
        rows={2}
        value={callReason}
        onChange={(event) => setCallReason(event.target.value)}
      />
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? t('reportForm.sending') : t('reportForm.sendCall')}
        </button>
        <button type="button" className="btn-ghost" disabled={busy} onClick={() => setCalling(false)}>
          {t('reportForm.cancel')}
        </button>
      </div>
    </form>
  ) : (
    <p>
      <button type="button" className="btn-ghost text-sm" disabled={busy} onClick={() => setCalling(true)}>
        {t('reportForm.call')}
      </button>
    </p>
  );

  return (
    <section aria-labelledby="report-title" className="card flex flex-col gap-3">
      <h2 id="report-title" className="text-lg font-bold">
        {t('reportForm.title')}
      </h2>
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'text-sm text-danger' : 'text-sm text-success'}>
          {message.text}
        </p>
      )}
      {!reporting ? null : answering ? (
        <>
          <p className="text-sm">{t('reportForm.waitingYou', { score: scoreText(report), time: deadline })}</p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-primary" disabled={busy} onClick={() => void act(() => confirmReport(api, match._id, match.version))}>
              {busy ? t('reportForm.sending') : t('reportForm.confirm', { score: scoreText(report) })}
            </button>
            {!disputing && (
              <button type="button" className="btn-ghost" disabled={busy} onClick={() => setDisputing(true)}>
                {t('reportForm.dispute')}
              </button>
            )}
          </div>
          {disputing && (
            <form className="flex flex-col gap-2" onSubmit={sendDispute}>
              <TextAreaField
                id="dispute-reason"
                label={t('reportForm.reason')}
                limit={DISPUTE_REASON_MAX}
                required
                rows={3}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
              />
              <div className="flex flex-wrap gap-2">
                <button type="submit" className="btn-primary" disabled={busy}>
                  {busy ? t('reportForm.sending') : t('reportForm.sendDispute')}
                </button>
                <button type="button" className="btn-ghost" disabled={busy} onClick={() => setDisputing(false)}>
                  {t('reportForm.cancel')}
                </button>
              </div>
            </form>
          )}
        </>
      ) : (
        <>
          {report?.state === 'reported' && <p className="text-sm">{t('reportForm.waitingOther', { score: scoreText(report), time: deadline })}</p>}
          <form className="flex flex-col gap-3" onSubmit={send}>
            <div className="grid grid-cols-2 gap-3">
              <Field
                id="report-score-a"
                label={t('reportForm.scoreA', { name: name('a') })}
                type="number"
                inputMode="numeric"
                min={0}
                max={9999}
                required={!fromGames}
                readOnly={fromGames !== null}
                value={fromGames ? String(fromGames.a) : scoreA}
                onChange={(event) => setScoreA(event.target.value)}
              />
              <Field
                id="report-score-b"
                label={t('reportForm.scoreB', { name: name('b') })}
                type="number"
                inputMode="numeric"
                min={0}
                max={9999}
                required={!fromGames}
                readOnly={fromGames !== null}
                value={fromGames ? String(fromGames.b) : scoreB}
                onChange={(event) => setScoreB(event.target.value)}
              />
            </div>
            {match.bestOf > 1 && (
              <fieldset className="flex flex-col gap-2 rounded-lg border border-line p-3">
                <legend className="px-1 text-sm font-semibold">{t('reportForm.games', { bestOf: match.bestOf })}</legend>
                <p className="text-xs text-muted">{t('reportForm.gamesHint')}</p>
                <GameScoreRows
                  games={games}
                  rowLabel={(number) => (maps[number - 1] ? t('reportForm.gameOnMap', { number, map: maps[number - 1]! }) : t('reportForm.game', { number }))}
                  fieldLabel={(number, slot) => t('reportForm.gameScoreOf', { number, name: name(slot) })}
                  onChange={setGames}
                />
              </fieldset>
            )}
            <p>
              <button type="submit" className="btn-primary" disabled={busy}>
                {busy ? t('reportForm.sending') : report ? t('reportForm.replace') : t('reportForm.send')}
              </button>
            </p>
          </form>
        </>
      )}
      {call}
    </section>
  );
}
