import { type SubmitEvent } from 'react';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import type { Game } from '../../lib/api/games.ts';
import type { Season, SeasonInput } from '../../lib/api/seasons.ts';
import type { Tournament } from '../../lib/api/tournaments.ts';
import { joinRefusal } from '../../lib/domain/season.ts';
import { formatDay } from '../../lib/domain/tournament-dates.ts';
import { t } from '../../lib/i18n/index.ts';
import { SeasonForm } from './SeasonForm.tsx';

interface Props {
  season: Season;
  games: Game[];
  /** Tournaments of the season's game its managers could see, newest first; those that may join are offered. */
  tournaments: Tournament[];
  busy: string | null;
  onSave: (body: Omit<SeasonInput, 'organisation'>) => void;
  onDelete: () => void;
  onAdd: (tournamentId: string) => void;
  onRemove: (tournament: { _id: string; title: string }) => void;
}

/** One season as its managers run it (issue 59): its page, its tournaments (add, remove), its name and points, deleting it. */
export function SeasonCard({ season, games, tournaments, busy, onSave, onDelete, onAdd, onRemove }: Props) {
  const prefix = `season-${season._id}`;
  const joined = new Set(season.tournaments.map((each) => each._id));
  // The domain's own rule picks what may join, so the list never offers what the server would refuse.
  const facts = { gameId: season.game._id, organisationId: season.organisation?._id ?? null, soloOnly: season.soloOnly };
  const candidates = tournaments.filter(
    (each) => !joined.has(each._id) && joinRefusal(facts, { gameId: each.game, organisationId: each.organisation?._id ?? null, soloOnly: each.soloOnly }) === null,
  );

  function add(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const chosen = String(new FormData(event.currentTarget).get('tournament') ?? '');
    if (chosen) onAdd(chosen);
  }

  return (
    <li className="flex flex-col gap-3 rounded-lg bg-surface-2 p-3" data-manage-season={season._id}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 className="min-w-0 flex-1 basis-48 text-lg font-bold wrap-anywhere">{season.name}</h3>
        <span className="text-sm text-muted">{season.game.name}</span>
        <a className="btn-ghost px-3 py-1 text-sm" href={`/seasons/${season._id}`}>
          {t('seasons.manage.open')}
        </a>
      </div>

      {season.tournaments.length === 0 ? (
        <p className="text-sm text-muted">{t('seasons.noTournaments')}</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label={t('seasons.tournamentsTitle')}>
          {season.tournaments.map((each) => (
            <li key={each._id} className="flex flex-wrap items-center gap-2 rounded-lg bg-surface px-3 py-2">
              <a href={`/tournaments/${each._id}`} className="min-w-0 basis-full font-semibold break-words sm:basis-auto sm:flex-1">
                {each.title}
              </a>
              <time dateTime={each.date} className="text-sm text-muted">
                {formatDay(each.date)}
              </time>
              <StatusBadge status={each.status} />
              <button
                type="button"
                className="btn-ghost px-3 py-1 text-xs text-danger"
                disabled={busy !== null}
                aria-label={t('seasons.manage.removeLabel', { title: each.title })}
                onClick={() => onRemove(each)}
              >
                {t('seasons.manage.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}

      {candidates.length === 0 ? (
        <p className="text-sm text-muted">{t('seasons.manage.noCandidates')}</p>
      ) : (
        <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={add}>
          <div className="flex min-w-0 flex-col gap-1 text-sm font-medium sm:flex-1">
            <label htmlFor={`${prefix}-add`}>{t('seasons.manage.tournament')}</label>
            <select id={`${prefix}-add`} name="tournament" className="field">
              {candidates.map((each) => (
                <option key={each._id} value={each._id}>
                  {each.title} · {formatDay(each.date)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-primary self-start sm:self-auto" disabled={busy !== null}>
            {t('seasons.manage.add')}
          </button>
        </form>
      )}

      <details className="rounded-lg bg-surface p-3">
        <summary className="cursor-pointer font-semibold">{t('seasons.manage.edit')}</summary>
        <div className="mt-3 flex flex-col gap-4">
          <SeasonForm key={`${season._id}-${season.tournaments.length}`} season={season} games={games} busy={busy !== null} submitLabel={t('seasons.manage.save')} onSubmit={onSave} />
          <button type="button" className="btn-ghost self-start text-danger" disabled={busy !== null} onClick={onDelete}>
            {t('seasons.manage.delete')}
          </button>
        </div>
      </details>
    </li>
  );
}
