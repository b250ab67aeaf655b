import { useCallback, useEffect, useRef, useState } from 'react';
import { Notice } from './Notice.tsx';
import { createApiClient, isNetworkFailure } from '../lib/api/client.ts';
import { getMatchHistory, MATCH_HISTORY_LIMIT, type MatchHistoryItem } from '../lib/api/match-history.ts';
import { matchOutcome, type MatchOutcome } from '../lib/domain/match-outcome.ts';
import { profilePath } from '../lib/domain/participant.ts';
import { detailsTable } from '../lib/domain/match-details.ts';
import { formatDateTime, formatNumber } from '../lib/i18n/format.ts';
import { t, type MessageKey } from '../lib/i18n/index.ts';
import { translateStatLabel } from '../lib/i18n/stat-texts.ts';

/** Match history is public: it is asked for without a token (SPEC §6). */
const publicApi = createApiClient({ baseUrl: import.meta.env.PUBLIC_API_URL ?? '/api' });

const outcomeStyle: Record<MatchOutcome, string> = {
  win: 'border-success text-success',
  draw: 'border-warning text-warning',
  loss: 'border-danger text-danger',
  unknown: 'border-line text-muted',
};

const outcomeLabel: Record<MatchOutcome, MessageKey> = {
  win: 'matchHistory.outcome.win',
  draw: 'matchHistory.outcome.draw',
  loss: 'matchHistory.outcome.loss',
  unknown: 'matchHistory.outcome.unknown',
};

const statusLabel: Record<MatchHistoryItem['status'], MessageKey> = {
  completed: 'matchHistory.status.completed',
  in_progress: 'matchHistory.status.in_progress',
  scheduled: 'matchHistory.status.scheduled',
  cancelled: 'matchHistory.status.cancelled',
};

function MatchRow({ item, kind, id }: { item: MatchHistoryItem; kind: 'player' | 'team'; id: string }) {
  const type = kind === 'player' ? 'user' : 'team';
  const mine = item.participants.find((p) => p.id === id && p.type === type);
  if (mine?.placement != null) return <LobbyRow item={item} mine={{ ...mine, placement: mine.placement }} />;
  const outcome = matchOutcome(item, { id, type });
  // The owner's side first, so every row reads "us – them".
  const sides = [...item.participants].sort((a, b) => Number(b.id === id && b.type === type) - Number(a.id === id && a.type === type));
  const details = detailsTable(
    item.matchDetails.gameSpecificData,
    sides.map((side) => side.name),
  );
  return (
    <li className="flex flex-col gap-2 rounded-lg bg-surface-2 px-3 py-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        {/* A match not yet completed has no outcome: its status says more. */}
        <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${outcomeStyle[outcome]}`}>
          {item.status === 'completed' ? t(outcomeLabel[outcome]) : t(statusLabel[item.status])}
        </span>
        <span className="font-semibold">{item.gameId.name}</span>
        <span className="text-muted">{item.tournamentId?.title ?? t('matchHistory.friendly')}</span>
        {item.matchDetails.duration !== null && <span className="text-muted">{t('matchHistory.duration', { minutes: item.matchDetails.duration })}</span>}
        <time className="ml-auto text-muted" dateTime={item.completedAt ?? item.createdAt}>
          {formatDateTime(item.completedAt ?? item.createdAt, { month: 'short' })}
        </time>
      </div>
      <p className="flex flex-wrap items-center gap-2">
        {sides.map((side, index) => (
          <span key={`${side.type}-${side.id ?? index}`} className="flex max-w-full min-w-0 items-center gap-2">
            {index > 0 && <span className="shrink-0 text-muted">{t('matchHistory.versus')}</span>}
            {/* The other side links to its profile (issue 23); the owner's own name does not link back. */}
            {side.id && !(side.id === id && side.type === type) ? (
              <a href={profilePath(side.type, side.id)} className={`min-w-0 break-words ${side.isWinner ? 'font-bold' : ''}`}>
                {side.name}
              </a>
            ) : (
              <span className={`min-w-0 break-words ${side.isWinner ? 'font-bold' : ''}`}>{side.name}</span>
            )}
            <span className="shrink-0 rounded bg-bg/60 px-2 font-mono text-sm" aria-label={`${t('matchHistory.score')}: ${side.score}`}>
              {side.score}
            </span>
          </span>
        ))}
      </p>
      {(details.rows.length > 0 || details.other.length > 0) && (
        <details className="text-sm">
          <summary className="cursor-pointer text-muted">{t('matchHistory.details')}</summary>
          {details.rows.length > 0 && (
            <table className="mt-2 w-full sm:w-auto">
              <thead>
                <tr>
                  <th scope="col" className="sr-only">
                    {t('matchHistory.stat')}
                  </th>
                  {sides.map((side) => (
                    <th key={`${side.type}:${side.id ?? side.name}`} scope="col" className="pb-1 pl-3 text-right font-semibold">
                      {/* A long name is cut, whole in its title: the numbers under it keep their place. */}
                      <span className="ml-auto block max-w-24 truncate sm:max-w-40" title={side.name}>
                        {side.name}
                      </span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {details.rows.map((row) => (
                  <tr key={row.label}>
                    <th scope="row" className="text-left font-normal text-muted">
                      {translateStatLabel(row.label)}
                    </th>
                    {row.values.map((value, index) => (
                      <td key={index} className="pl-3 text-right tabular-nums">
                        {value === null ? '—' : typeof value === 'number' ? formatNumber(value) : value}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {details.other.length > 0 && (
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
              {details.other.map(([key, value]) => (
                <div key={key} className="contents">
                  <dt className="text-muted">{key}</dt>
                  <dd className="tabular-nums">{typeof value === 'number' ? formatNumber(value) : value}</dd>
                </div>
              ))}
            </dl>
          )}
        </details>
      )}
    </li>
  );
}

type Side = MatchHistoryItem['participants'][number];

/** A free-for-all lobby (issue 59): the owner's place of how many and points, and who won it. */
function LobbyRow({ item, mine }: { item: MatchHistoryItem; mine: Side & { placement: number } }) {
  const winner = item.participants.find((p) => p.placement === 1);
  return (
    <li className="flex flex-col gap-2 rounded-lg bg-surface-2 px-3 py-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${mine.placement === 1 ? outcomeStyle.win : outcomeStyle.unknown}`}>
          {t('matchHistory.place', { place: mine.placement, count: item.participants.length })}
        </span>
        <span className="font-semibold">{item.gameId.name}</span>
        <span className="text-muted">{item.tournamentId?.title ?? t('matchHistory.friendly')}</span>
        <time className="ml-auto text-muted" dateTime={item.completedAt ?? item.createdAt}>
          {formatDateTime(item.completedAt ?? item.createdAt, { month: 'short' })}
        </time>
      </div>
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span>{t('matchHistory.lobbyPoints', { points: mine.score })}</span>
        {winner && winner.placement !== mine.placement && (
          <span className="text-muted">
            {t('matchHistory.lobbyWinner')}{' '}
            {winner.id ? (
              <a href={profilePath(winner.type, winner.id)} className="font-bold">
                {winner.name}
              </a>
            ) : (
              <span className="font-bold">{winner.name}</span>
            )}
          </span>
        )}
      </p>
    </li>
  );
}

interface Props {
  kind: 'player' | 'team';
  id: string;
  title?: string;
  headingLevel?: 2 | 3 | 4;
  /** The first page as the server read it (a profile page, issue 23): shown without a request, readable without JavaScript. */
  initial?: MatchHistoryItem[];
}

/**
 * Match history of a player or a team (SPEC §2): newest first, 20 at a time, 'load more' while
 * a full page came back. Used on the team tab, in the cabinet and on the profiles.
 */
export default function MatchHistory({ kind, id, title = t('matchHistory.title'), headingLevel = 3, initial }: Props) {
  const [items, setItems] = useState<MatchHistoryItem[]>(initial ?? []);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>(initial ? 'ready' : 'loading');
  const [error, setError] = useState('');
  const [more, setMore] = useState(initial ? initial.length >= MATCH_HISTORY_LIMIT : false);
  const [loadingMore, setLoadingMore] = useState(false);
  const shown = useRef(initial?.length ?? 0);

  const load = useCallback(
    async (offset: number) => {
      try {
        const page = await getMatchHistory(publicApi, { kind, id }, { limit: MATCH_HISTORY_LIMIT, offset });
        setItems((held) => {
          const next = offset === 0 ? page : [...held, ...page.filter((m) => !held.some((h) => h._id === m._id))];
          shown.current = next.length;
          return next;
        });
        setMore(page.length >= MATCH_HISTORY_LIMIT);
        setStatus('ready');
        setError('');
      } catch (caught) {
        setError(isNetworkFailure(caught) ? t('matchHistory.networkError') : t('matchHistory.loadError'));
        if (offset === 0) setStatus('error');
      }
    },
    [kind, id],
  );

  // The server's first page, when given, stands in for the first request.
  const fromServer = useRef(initial !== undefined);
  useEffect(() => {
    if (!fromServer.current) void load(0);
  }, [load]);

  async function loadMore() {
    setLoadingMore(true);
    await load(shown.current);
    setLoadingMore(false);
  }

  const Heading = `h${headingLevel}` as 'h2' | 'h3' | 'h4';
  const headingId = `matches-${kind}-${id}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <Heading id={headingId} className="font-semibold">
        {title}
      </Heading>
      {status === 'loading' && <p className="text-sm text-muted">{t('matchHistory.loading')}</p>}
      {status === 'ready' && items.length === 0 && <p className="text-sm text-muted">{t('matchHistory.empty')}</p>}
      {items.length > 0 && (
        <ol className="flex flex-col gap-2">
          {items.map((item) => (
            <MatchRow key={item._id} item={item} kind={kind} id={id} />
          ))}
        </ol>
      )}
      {error && <Notice tone="error">{error}</Notice>}
      {/* In the server's HTML too, so a page hydrating on interaction (client:interact) offers it; hidden without JavaScript, where it cannot work. */}
      {status === 'ready' && more && (
        <button type="button" className="btn-ghost self-start [@media(scripting:none)]:hidden" onClick={loadMore} disabled={loadingMore}>
          {loadingMore ? t('matchHistory.loading') : t('matchHistory.loadMore')}
        </button>
      )}
    </section>
  );
}
