import { MatchStateBadge } from './MatchStateBadge.tsx';
import { Notice } from './Notice.tsx';
import type { MyCheckInTournament, MyMatch } from '../lib/api/schedule.ts';
import { myMatchStep, type MyMatchStep } from '../lib/domain/my-matches.ts';
import { formatDateTime } from '../lib/i18n/format.ts';
import { t, type MessageKey } from '../lib/i18n/index.ts';

/**
 * «Мої матчі» (issue 22), drawn from `GET /users/me/matches`: the next match first and large, then
 * the rest; and the tournaments whose check-in is open, each with its button. Drawn in the browser
 * only (the data is personal), so times are in the reader's own zone. The cabinet and the team tab
 * both draw it; the islands own the loading and the calls.
 */

const stepText: Record<Exclude<MyMatchStep, 'report' | 'answer' | null>, MessageKey> = {
  waiting: 'myMatches.waiting',
  disputed: 'myMatches.disputed',
};

function MatchItem({ match, next, timeZone, showSide }: { match: MyMatch; next: boolean; timeZone: string; showSide: boolean }) {
  const step = myMatchStep(match);
  const href = `/matches/${match._id}`;
  return (
    <article
      aria-label={next ? t('myMatches.next') : undefined}
      className={`flex flex-col gap-2 rounded-card border bg-surface p-3 text-sm ${next ? 'border-success/60' : 'border-line'}`}
    >
      {next && <p className="text-xs font-semibold tracking-wide text-success uppercase">{t('myMatches.next')}</p>}
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className={`min-w-0 font-semibold wrap-anywhere ${next ? 'text-lg' : ''}`}>
          {match.opponent ? t('myMatches.vs', { name: match.opponent.name }) : <span className="text-muted italic">{t('myMatches.opponentUnknown')}</span>}
        </p>
        <MatchStateBadge state={match.status} />
      </div>
      <p className="text-muted wrap-anywhere">
        <a href={`/tournaments/${match.tournament._id}`}>{match.tournament.title}</a>
        {showSide && !match.tournament.soloOnly && <> · {t('myMatches.asTeam', { name: match.me.name })}</>}
      </p>
      <p>
        {match.scheduledAt ? (
          <time dateTime={match.scheduledAt} className="font-medium">
            {formatDateTime(match.scheduledAt, { timeZone })}
          </time>
        ) : (
          <span className="text-muted">{t('myMatches.noTime')}</span>
        )}
      </p>
      {(step === 'waiting' || step === 'disputed') && <p className={step === 'disputed' ? 'text-danger' : 'text-warning'}>{t(stepText[step])}</p>}
      <div className="flex flex-wrap items-center gap-2">
        {(step === 'report' || step === 'answer') && (
          <a href={href} className="btn-primary min-h-11">
            {t(step === 'report' ? 'myMatches.report' : 'myMatches.answer')}
          </a>
        )}
        <a href={href} className="btn-ghost min-h-11">
          {t('myMatches.open')}
        </a>
      </div>
    </article>
  );
}

/** The matches, next first (the API's order); «Найближчих матчів немає» when there are none. */
export function MyMatchList({ matches, timeZone, showSide = true }: { matches: readonly MyMatch[]; timeZone: string; showSide?: boolean }) {
  if (matches.length === 0) return <p className="text-muted">{t('myMatches.empty')}</p>;
  const [next, ...rest] = matches;
  return (
    <div className="flex flex-col gap-3">
      <MatchItem match={next!} next timeZone={timeZone} showSide={showSide} />
      {rest.length > 0 && (
        <>
          <h3 className="text-sm font-semibold text-muted">{t('myMatches.later')}</h3>
          <ul className="grid gap-2 sm:grid-cols-2">
            {rest.map((match) => (
              <li key={match._id}>
                <MatchItem match={match} next={false} timeZone={timeZone} showSide={showSide} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

interface CheckInProps {
  checkIns: readonly MyCheckInTournament[];
  timeZone: string;
  /** The tournament whose check-in is being sent. */
  busy: string | null;
  problem: string | null;
  onToggle: (tournamentId: string, checkedIn: boolean) => void;
}

/** The tournaments whose check-in window is open for me: until when, done or not, and the button (the captain's for a team). */
export function CheckInList({ checkIns, timeZone, busy, problem, onToggle }: CheckInProps) {
  if (checkIns.length === 0 && !problem) return null;
  return (
    <div className="flex flex-col gap-2">
      <ul className="flex flex-col gap-2">
        {checkIns.map((c) => (
          <li key={c.tournament._id} className="flex flex-col gap-2 rounded-card border border-warning/60 bg-surface p-3 text-sm sm:flex-row sm:items-center">
            <div className="flex min-w-0 flex-1 flex-col gap-0.5">
              <span className="wrap-anywhere">
                {t('myMatches.checkInUntil', { title: c.tournament.title, time: formatDateTime(c.closesAt, { timeZone }) })}
              </span>
              {c.team && <span className="text-muted">{t('myMatches.asTeam', { name: c.team.name })}</span>}
              {c.checkedIn && <span className="font-semibold text-success">✓ {t('myMatches.checkedIn')}</span>}
              {!c.canCheckIn && !c.checkedIn && <span className="text-muted">{t('myMatches.checkInCaptain')}</span>}
            </div>
            {c.canCheckIn &&
              (c.checkedIn ? (
                <button type="button" className="btn-ghost min-h-11 shrink-0" disabled={busy !== null} onClick={() => onToggle(c.tournament._id, false)}>
                  {t('myMatches.undoCheckIn')}
                </button>
              ) : (
                <button type="button" className="btn-primary min-h-11 shrink-0" disabled={busy !== null} onClick={() => onToggle(c.tournament._id, true)}>
                  {t('myMatches.checkIn')}
                </button>
              ))}
          </li>
        ))}
      </ul>
      {problem && <Notice tone="error">{problem}</Notice>}
    </div>
  );
}
