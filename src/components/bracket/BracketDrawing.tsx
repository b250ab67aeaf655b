import type { ComponentProps, ReactNode } from 'react';
import { t } from '../../lib/i18n/index.ts';
import { MatchCard } from './MatchCard.tsx';
import type { MatchView, RoundView } from './view.ts';

/*
 * Connectors in CSS only, no measured positions: every round is a column of equal height whose
 * matches share it equally, so a match sits exactly level with the middle of the two that feed
 * it. Each match draws half of the bracket-shaped joint on its right (the upper one down to the
 * middle, the lower one up to it) and a stub on its left; a decided match's half is highlighted.
 * The matches of a round are rows of one grid, equal even when one card is taller than another (an
 * admin's buttons wrap by the names' lengths). Columns are 15rem wide and grow to 20rem where the box
 * has room, so names are cut only where they must be.
 */
const incoming = 'before:absolute before:top-1/2 before:left-0 before:w-4 before:border-t-2';
const outgoing = 'after:absolute after:right-0 after:h-1/2 after:w-4 after:border-r-2';
const outgoingDown = `${outgoing} after:top-1/2 after:border-t-2`;
const outgoingUp = `${outgoing} after:bottom-1/2 after:border-b-2`;

function joints(match: MatchView): string {
  const parts = [];
  if (match.roundIndex > 0) parts.push(incoming, match.state === 'waiting' ? 'before:border-line' : 'before:border-accent/70');
  if (match.link) parts.push(match.link === 'down' ? outgoingDown : outgoingUp, match.state === 'completed' ? 'after:border-accent/70' : 'after:border-line');
  return parts.join(' ');
}

interface Props {
  rounds: RoundView[];
  idPrefix?: string;
  /** The rounds' heading level: 2 on the bracket page, 3 in the modal (whose title is the 2). */
  headingLevel?: 2 | 3;
  /** Draws one match; by default its card. The modal adds the admin's actions to it. */
  renderMatch?: (match: MatchView) => ReactNode;
  /**
   * What the default card adds to each match on the bracket page (issue 22): the link to its page,
   * its time. A function here rather than `renderMatch`, as an Astro page cannot pass React children.
   */
  cardOf?: (match: MatchView) => Pick<ComponentProps<typeof MatchCard>, 'href' | 'scheduledAt' | 'reportState' | 'number' | 'scores' | 'waitsFor'>;
}

/**
 * The whole bracket as a tree: rounds as columns from left to right with connectors between them,
 * winners crowned, byes marked. Server-rendered on the bracket page (readable without JavaScript)
 * and live in the bracket modal. On a narrow screen only the drawing scrolls sideways, and says so.
 */
export function BracketDrawing({
  rounds,
  idPrefix = 'round',
  headingLevel = 2,
  cardOf,
  renderMatch = (match) => <MatchCard match={match} className="w-full" {...cardOf?.(match)} />,
}: Props) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <>
      {rounds.length > 1 && <p className="text-sm text-muted md:hidden">{t('bracket.scrollHint')}</p>}
      <div role="region" aria-label={t('bracket.drawing')} tabIndex={0} className="overflow-x-auto overscroll-x-contain rounded-card border border-line bg-surface/40 py-3">
        <div className="flex w-max min-w-full">
          {rounds.map((round) => (
            <section key={round.index} aria-labelledby={`${idPrefix}-${round.index}`} className="flex w-60 max-w-80 grow flex-col">
              <Heading id={`${idPrefix}-${round.index}`} className="truncate px-4 pb-2 text-sm font-bold tracking-wide text-muted uppercase">
                {round.title}
              </Heading>
              <ol className="grid flex-1 auto-rows-fr grid-cols-1">
                {round.matches.map((match) => (
                  <li key={match.index} className={`relative flex items-center px-4 py-1.5 ${joints(match)}`}>
                    {renderMatch(match)}
                  </li>
                ))}
              </ol>
            </section>
          ))}
        </div>
      </div>
    </>
  );
}
