import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { getOrganisedTournaments, type OrganisedTournament } from '../../lib/api/tournaments.ts';
import { formatDay } from '../../lib/domain/tournament-dates.ts';
import { isFinished } from '../../lib/domain/tournament-status.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $user } from '../../lib/stores/session.ts';

/**
 * The cabinet's «Мої турніри» (issue 57): the tournaments the reader organises — as a co-organiser,
 * or as one of the organisation hosting it — each with its way into the control room. Nothing for
 * someone who organises none.
 */
export default function MyTournaments() {
  const user = useHydratedStore($user, null);
  const [list, setList] = useState<OrganisedTournament[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!user) return;
    let stale = false;
    getOrganisedTournaments(api).then(
      (found) => !stale && setList(found.tournaments),
      (caught: unknown) => !stale && setProblem(errorMessage(caught, t('cabinet.organising.loadError'))),
    );
    return () => {
      stale = true;
    };
  }, [user]);

  if (!user || (list && list.length === 0)) return null;
  return (
    <section className="card flex flex-col gap-4" aria-labelledby="my-tournaments">
      <h2 id="my-tournaments" className="text-lg font-bold">
        {t('cabinet.organising.title')}
      </h2>
      {problem && <Notice tone="error">{problem}</Notice>}
      {!list && !problem && <p className="text-muted">{t('cabinet.organising.loading')}</p>}
      {list && (
        <ul className="flex flex-col gap-2">
          {list.map((tournament) => (
            <li key={tournament._id} className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg bg-surface-2 px-3 py-2">
              <span className="flex min-w-0 flex-1 basis-48 flex-col">
                <a href={`/tournaments/${tournament._id}`} className="font-semibold wrap-anywhere">
                  {tournament.title}
                </a>
                <span className="text-sm text-muted">
                  {formatDay(tournament.date)} · {tournament.gameName} · {tournament.organisation ?? t(`cabinet.organising.${tournament.role}`)}
                </span>
              </span>
              <StatusBadge status={tournament.status} />
              {!isFinished(tournament.status) && (
                <a className="btn-primary px-3 py-1 text-sm" href={`/tournaments/${tournament._id}/control`}>
                  {t('control.open')}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
