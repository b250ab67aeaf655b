import type { Claim, ControlMatch } from '../../../lib/api/control-room.ts';
import { scoreText } from '../../../lib/domain/match-report.ts';
import { t } from '../../../lib/i18n/index.ts';
import { clock } from './clock.ts';

export type CardKind = 'dispute' | 'call' | 'awaiting' | 'ready';

interface Props {
  item: ControlMatch;
  kind: CardKind;
  /** «Півфінал, матч 2» as the stage's board names it; the stage's name until the board is read. */
  label: string;
  nameOf: (id: string | null) => string;
  /** When the room was read: a ready match scheduled before it is late. */
  now: number;
  busy: boolean;
  /** Counts a side's claimed score as the result. */
  onAccept: (claim: Claim) => void;
  /** Opens the result form (score, games, forfeit, time, comment). */
  onEdit: () => void;
  onAnswer: () => void;
}

const gamesText = (claim: Claim) => (claim.games.length > 0 ? ` (${claim.games.map((g) => `${g.a}:${g.b}`).join(', ')})` : '');

/**
 * One match that needs the organisers (the control room, issue 57): its sides, what each side said
 * (both reports of a dispute, the complaint, a call's words, a report's deadline) and what the
 * organiser can do right there. Sized for a phone first: the actions wrap under the facts.
 */
export function ControlMatchCard({ item, kind, label, nameOf, now, busy, onAccept, onEdit, onAnswer }: Props) {
  const { match, reports, dispute, call, confirmBy } = item;
  const [nameA, nameB] = [nameOf(match.a), nameOf(match.b)];
  const sideName = (side: 'a' | 'b' | null) => (side === 'b' ? nameB : nameA);
  const late = kind === 'ready' && match.scheduledAt !== null && Date.parse(match.scheduledAt) < now;
  const claims = (['a', 'b'] as const).map((side) => ({ side, claim: reports[side] }));

  return (
    <li className="flex flex-col gap-3 rounded-card border border-line bg-surface p-3" data-match={match._id} data-kind={kind}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="text-xs font-semibold text-muted">{label}</p>
        <a className="text-xs" href={`/matches/${match._id}`}>
          {t('control.openMatch')} →
        </a>
      </div>
      <p className="font-semibold wrap-anywhere">
        {nameA} <span className="text-muted">{t('matchPage.vs')}</span> {nameB}
      </p>

      {kind === 'call' && call && (
        <p className="rounded-lg border border-warning px-3 py-2 text-sm wrap-anywhere">
          {call.side === null
            ? t('control.noShow', { time: clock(call.at) })
            : call.reason
              ? t('control.callReason', { name: sideName(call.side), time: clock(call.at), reason: call.reason })
              : t('control.callNoReason', { name: sideName(call.side), time: clock(call.at) })}
        </p>
      )}

      {(kind === 'dispute' || kind === 'awaiting') && (
        <ul className="flex flex-col gap-1 text-sm">
          {claims
            .filter(({ claim }) => kind === 'dispute' || claim)
            .map(({ side, claim }) => (
              <li key={side} className="flex flex-wrap items-baseline gap-x-2">
                {claim ? (
                  <>
                    <span className="font-semibold tabular-nums">{t('control.claim', { name: sideName(side), score: scoreText(claim) + gamesText(claim) })}</span>
                    <span className="text-xs text-muted">{t('control.claimBy', { user: claim.user ?? '—', time: clock(claim.at) })}</span>
                  </>
                ) : (
                  <span className="text-muted">{t('control.noClaim', { name: sideName(side) })}</span>
                )}
              </li>
            ))}
        </ul>
      )}
      {kind === 'dispute' && (
        <p className="text-sm wrap-anywhere">{dispute?.reason ? t('control.complaint', { name: sideName(dispute.side), reason: dispute.reason }) : t('control.complaintEmpty')}</p>
      )}
      {kind === 'awaiting' && confirmBy && <p className="text-xs text-muted">{t('control.confirmBy', { time: clock(confirmBy) })}</p>}
      {kind === 'ready' && match.scheduledAt && (
        <p className={`text-xs ${late ? 'font-semibold text-warning' : 'text-muted'}`}>
          {t('control.scheduled', { time: clock(match.scheduledAt) })}
          {late && ` · ${t('control.late')}`}
        </p>
      )}

      <div className="flex flex-wrap gap-2">
        {(kind === 'dispute' || kind === 'awaiting') &&
          claims.map(({ side, claim }) =>
            claim ? (
              <button key={side} type="button" className="btn-primary min-h-11 px-3 text-sm" disabled={busy} onClick={() => onAccept(claim)}>
                {t(kind === 'dispute' ? 'control.accept' : 'control.acceptReport', { score: `${sideName(side)} ${scoreText(claim)}` })}
              </button>
            ) : null,
          )}
        {kind === 'call' && (
          <button type="button" className="btn-primary min-h-11 px-3 text-sm" disabled={busy} onClick={onAnswer}>
            {t('control.answer')}
          </button>
        )}
        {match.a && match.b && (
          <button type="button" className="btn-ghost min-h-11 px-3 text-sm" disabled={busy} onClick={onEdit}>
            {t(kind === 'ready' || kind === 'call' ? 'control.enter' : 'control.correct')}
          </button>
        )}
      </div>
    </li>
  );
}
