import { useEffect, useState } from 'react';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure, type ApiClient } from '../../lib/api/client.ts';
import { listGames, type Game } from '../../lib/api/games.ts';
import { getOrganisation } from '../../lib/api/organisations.ts';
import { addSeasonTournament, createSeason, deleteSeason, getSeason, listSeasons, removeSeasonTournament, updateSeason } from '../../lib/api/season-calls.ts';
import type { Season, SeasonInput, SeasonSaved } from '../../lib/api/seasons.ts';
import type { Tournament } from '../../lib/api/tournaments.ts';
import { listTournaments } from '../../lib/api/tournament-list.ts';
import { organisationPowers } from '../../lib/domain/organisation.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';
import { SeasonCard } from './SeasonCard.tsx';
import { SeasonForm } from './SeasonForm.tsx';

/** The most seasons and tournaments of one game the island reads: one page each. */
const LIMIT = 100;

interface Loaded {
  /** The organisation's id, or null for the site's own seasons. */
  organisationId: string | null;
  seasons: Season[];
  games: Game[];
  /** Tournaments by game, newest first: what a season of that game may take. */
  tournaments: Record<string, Tournament[]>;
}

/** The tournaments of each game, as its managers may add them: the organisation's, or every one of the game for the site's admin (the rule filters them). */
async function tournamentsOf(client: ApiClient, organisationId: string | null, gameIds: readonly string[]): Promise<Record<string, Tournament[]>> {
  const lists = await Promise.all(
    [...new Set(gameIds)].map(async (game) => {
      const page = await listTournaments(client, { game, sort: 'date_desc', limit: LIMIT, ...(organisationId ? { organisation: organisationId } : {}) });
      return [game, page.items] as const;
    }),
  );
  return Object.fromEntries(lists);
}

/**
 * Seasons as their managers run them (issue 59): make one, add and remove its tournaments, rename it,
 * change its points, delete it. With `organisation` (a slug), that organisation's, for its owner and
 * admins (and the site's admin); without, the site's own, for the site's admin. Anyone else sees
 * nothing here. The server decides every change again.
 */
export default function ManageSeasons({ organisation }: { organisation?: string }) {
  const user = useHydratedStore($user, null);
  const loading = useHydratedStore($sessionLoading, true);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [hidden, setHidden] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    if (!user) return;
    let stale = false;
    void (async () => {
      try {
        let organisationId: string | null = null;
        let manages = user.role === 'admin';
        if (organisation) {
          const found = await getOrganisation(api, organisation);
          organisationId = found._id;
          // A suspended organisation changes nothing until it is lifted.
          manages = found.suspended === null && (manages || organisationPowers(found.viewer?.role ?? null).manage);
        }
        if (!manages) {
          if (!stale) setHidden(true);
          return;
        }
        const [page, games] = await Promise.all([listSeasons(api, { organisation: organisationId ?? 'site', limit: LIMIT }), listGames(api)]);
        const seasons = await Promise.all(page.items.map((each) => getSeason(api, each._id)));
        const tournaments = await tournamentsOf(
          api,
          organisationId,
          seasons.map((each) => each.game._id),
        );
        if (!stale) setLoaded({ organisationId, seasons, games: Array.isArray(games) ? games : [], tournaments });
      } catch (caught) {
        if (!stale) setFailed(errorMessage(caught, t('seasons.manage.failed')));
      }
    })();
    return () => {
      stale = true;
    };
  }, [user, organisation]);

  if (loading || !user || hidden) return null;
  if (failed) return <Notice tone="error">{failed}</Notice>;
  if (!loaded) return <p className="text-muted">{t('seasons.manage.loading')}</p>;
  const current = loaded;

  async function run<T extends { message: string }>(key: string, change: () => Promise<T>, then: (saved: T) => Promise<void> | void): Promise<void> {
    setBusy(key);
    setNotice(null);
    try {
      const saved = await change();
      await then(saved);
      setNotice({ tone: 'success', text: saved.message });
    } catch (caught) {
      setNotice({ tone: 'error', text: isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('seasons.manage.failed')) });
    } finally {
      setBusy(null);
    }
  }

  /** The season as the server answered it, in place of the one shown. */
  const replace = (season: Season) => setLoaded({ ...current, seasons: current.seasons.map((each) => (each._id === season._id ? season : each)) });

  function onCreate(body: Omit<SeasonInput, 'organisation'>) {
    void run(
      'create',
      () => createSeason(api, { ...body, ...(current.organisationId ? { organisation: current.organisationId } : {}) }),
      async (saved: SeasonSaved) => {
        const game = saved.season.game._id;
        const more = current.tournaments[game] ? {} : await tournamentsOf(api, current.organisationId, [game]);
        setLoaded({ ...current, seasons: [saved.season, ...current.seasons], tournaments: { ...current.tournaments, ...more } });
      },
    );
  }

  function onSave(season: Season, body: Omit<SeasonInput, 'organisation'>) {
    void run(
      `save:${season._id}`,
      () => updateSeason(api, season._id, body),
      async (saved: SeasonSaved) => {
        const game = saved.season.game._id;
        const more = current.tournaments[game] ? {} : await tournamentsOf(api, current.organisationId, [game]);
        setLoaded({
          ...current,
          seasons: current.seasons.map((each) => (each._id === season._id ? saved.season : each)),
          tournaments: { ...current.tournaments, ...more },
        });
      },
    );
  }

  function onDelete(season: Season) {
    if (!window.confirm(t('seasons.manage.deleteConfirm', { name: season.name }))) return;
    void run(
      `delete:${season._id}`,
      () => deleteSeason(api, season._id),
      () => setLoaded({ ...current, seasons: current.seasons.filter((each) => each._id !== season._id) }),
    );
  }

  const onAdd = (season: Season, tournamentId: string) =>
    void run(`add:${season._id}`, () => addSeasonTournament(api, season._id, tournamentId), (saved: SeasonSaved) => replace(saved.season));
  const onRemove = (season: Season, tournament: { _id: string }) =>
    void run(`remove:${season._id}`, () => removeSeasonTournament(api, season._id, tournament._id), (saved: SeasonSaved) => replace(saved.season));

  return (
    <section aria-labelledby="manage-seasons" className="card flex flex-col gap-4" data-manage-seasons>
      <h2 id="manage-seasons" className="text-xl font-bold">
        {current.organisationId ? t('seasons.manage.title') : t('seasons.manage.siteTitle')}
      </h2>
      <p className="text-sm text-muted">{t('seasons.manage.lead')}</p>
      <div aria-live="polite" className="empty:hidden">
        {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      </div>
      <details className="rounded-lg bg-surface-2 p-3">
        <summary className="cursor-pointer font-semibold">{t('seasons.manage.new')}</summary>
        <div className="mt-3">
          {/* A new blank form once one was made. */}
          <SeasonForm key={current.seasons.length} games={current.games} busy={busy !== null} submitLabel={t('seasons.manage.create')} onSubmit={onCreate} />
        </div>
      </details>
      {current.seasons.length === 0 ? (
        <p className="text-sm text-muted">{t('seasons.manage.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {current.seasons.map((season) => (
            <SeasonCard
              key={season._id}
              season={season}
              games={current.games}
              tournaments={current.tournaments[season.game._id] ?? []}
              busy={busy}
              onSave={(body) => onSave(season, body)}
              onDelete={() => onDelete(season)}
              onAdd={(id) => onAdd(season, id)}
              onRemove={(tournament) => onRemove(season, tournament)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
