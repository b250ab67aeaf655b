import type { ReportState } from '../../lib/domain/match-day.ts';
import { ReportStateBadge } from '../ReportStateBadge.tsx';
import type { ReactNode } from 'react';
import { Crown } from '../Crown.tsx';
import { MatchStateBadge } from '../MatchStateBadge.tsx';
import { MatchTime } from '../MatchTime.tsx';
import { t } from '../../lib/i18n/index.ts';
import type { MatchView, SideView } from './view.ts';

function SidePicture({ side }: { side: SideView }) {
  if (!side.id) return <span aria-hidden="true" className="size-6 shrink-0 rounded-full border border-dashed border-line" />;
  if (side.image) {
    return <img src={side.image} alt="" width="24" height="24" loading="lazy" decoding="async" className="size-6 shrink-0 rounded-full bg-surface-2 object-cover" />;
  }
  return (
    <span aria-hidden="true" className="grid size-6 shrink-0 place-items-center rounded-full bg-surface-2 text-xs font-bold text-accent">
      {side.initial}
    </span>
  );
}

/** One side; its name links to the profile unless the whole card is a button (the admin's, SPEC bracket modal). */
function Side({ side, linked, score, waitsFor }: { side: SideView; linked: boolean; score?: number | null | undefined; waitsFor?: string | null | undefined }) {
  const tone = side.result === 'winner' ? 'bg-surface-2 font-semibold text-accent' : side.result === 'loser' ? 'text-muted' : side.id ? '' : 'text-muted italic';
  return (
    <li className={`flex min-w-0 items-center gap-2 rounded-md px-1.5 py-1 ${tone}`}>
      <SidePicture side={side} />
      {linked && side.href ? (
        <a href={side.href} className="min-w-0 flex-1 truncate text-inherit" title={side.name}>
          {side.name}
        </a>
      ) : (
        <span className="min-w-0 flex-1 truncate" title={waitsFor ?? side.name}>
          {waitsFor ?? side.name}
        </span>
      )}
      {side.result === 'winner' && <Crown />}
      {score !== null && score !== undefined && <span className="shrink-0 font-mono font-semibold tabular-nums">{score}</span>}
    </li>
  );
}

interface Props {
  match: MatchView;
  /** Admin actions under the card (quick winner buttons, edit). */
  children?: ReactNode;
  className?: string;
  onClick?: () => void;
  /** The match's page (`/matches/{id}`), linked from its number; the SPEC bracket's matches have none. */
  href?: string | undefined;
  /** When the match is to be played (issue 22), shown in the reader's zone by the page's `LocalTimes`. */
  scheduledAt?: string | null | undefined;
  /** A players' report waiting for confirmation, or disputed (issue 22). */
  reportState?: ReportState | null | undefined;
  /** Its stage match's number, M1…Mn (issue 57); the SPEC bracket's own count by round otherwise. */
  number?: number | undefined;
  /** Each side's score once played (its stage match's), and for an empty slot the match it waits for. */
  scores?: [number | null, number | null] | undefined;
  waitsFor?: [string | null, string | null] | undefined;
}

/**
 * One match (SPEC §2 Bracket modal): number, status badge, both sides with a crown on the winner,
 * the comment. Server-rendered on the bracket page and live in the modal.
 */
export function MatchCard({ match, children, className = '', onClick, href, scheduledAt, reportState, number, scores, waitsFor }: Props) {
  const title = number === undefined ? t('bracket.match', { number: match.number }) : t('stages.match', { number });
  return (
    <article
      aria-label={match.label}
      onClick={onClick}
      className={`rounded-card border bg-surface p-2.5 text-sm ${reportState === 'disputed' ? 'border-danger/70' : match.state === 'ready' ? 'border-success/60' : 'border-line'} ${onClick ? 'cursor-pointer hover:border-primary' : ''} ${className}`}
    >
      <div className="mb-1.5 flex items-center justify-between gap-2">
        {href ? (
          <a href={href} className="text-xs font-semibold">
            {title}
          </a>
        ) : (
          <span className="text-xs font-semibold text-muted">{title}</span>
        )}
        <span className="flex flex-wrap justify-end gap-1">
          {reportState && <ReportStateBadge state={reportState} />}
          <MatchStateBadge state={match.state} />
        </span>
      </div>
      <ul className="flex flex-col gap-1">
        <Side side={match.sides[0]} linked={!onClick} score={scores?.[0]} waitsFor={match.sides[0].id ? null : waitsFor?.[0]} />
        <Side side={match.sides[1]} linked={!onClick} score={scores?.[1]} waitsFor={match.sides[1].id ? null : waitsFor?.[1]} />
      </ul>
      {scheduledAt && <MatchTime iso={scheduledAt} className="mt-1.5" />}
      {match.comment && (
        <p className="mt-1.5 text-xs break-words whitespace-pre-line text-muted">
          <span aria-hidden="true">💬 </span>
          {match.comment}
        </p>
      )}
      {children}
    </article>
  );
}
