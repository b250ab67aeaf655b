import { useEffect } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { t } from '../../lib/i18n/index.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';
import { CreateTeamForm } from './CreateTeamForm.tsx';
import type { Team } from '../../lib/api/teams.ts';
import { $teams, $teamsStatus, forgetTeams, loadTeams, watchTeams } from './store.ts';
import { TeamCard } from './TeamCard.tsx';

/** What the server renders with: no session, so no teams (one array, as React wants a stable snapshot). */
const NO_TEAMS: Team[] = [];

/**
 * The /team page (SPEC §2 Team tab): the create form while the user has no team, then 'Мої
 * команди'. Reloads when the user's team list changes (an invite accepted from the bell), and
 * follows the teams on the tab's clock (store.ts `watchTeams`) as the chat does: a player who
 * joined, an invite answered or withdrawn, a member removed.
 */
export default function TeamTab() {
  // The server renders the page without a session: hydrate with that, then the browser's own. Read
  // straight from the stores, a session already loaded by the layout's islands made the first
  // render differ from the server's HTML (React error #418 on every signed-in visit).
  const user = useHydratedStore($user, null);
  const sessionLoading = useHydratedStore($sessionLoading, true);
  const teams = useHydratedStore($teams, NO_TEAMS);
  const status = useHydratedStore($teamsStatus, 'idle');
  const userId = user?._id ?? null;
  const teamKey = user?.teams.join(',') ?? '';

  useEffect(() => {
    if (!userId) {
      forgetTeams();
      return;
    }
    void loadTeams({ quiet: true });
  }, [userId, teamKey]);

  useEffect(() => (userId ? watchTeams() : undefined), [userId]);

  if (sessionLoading) return <p className="text-muted">{t('team.loading')}</p>;
  if (!user) {
    return (
      <div className="card flex max-w-lg flex-col items-start gap-3">
        <p>{t('team.signInPrompt')}</p>
        <a className="btn-primary" href="/login">
          {t('team.signIn')}
        </a>
      </div>
    );
  }
  if (status === 'error') return <Notice tone="error">{t('team.loadError')}</Notice>;
  if (status !== 'ready') return <p className="text-muted">{t('team.loading')}</p>;
  if (teams.length === 0) return <CreateTeamForm />;
  return (
    <section aria-labelledby="my-teams" className="flex flex-col gap-6">
      <h2 id="my-teams" className="text-xl font-bold">
        {t('team.myTeams')}
      </h2>
      {teams.map((team, index) => (
        <TeamCard key={team._id} team={team} userId={user._id} current={index === 0 && teams.length > 1} />
      ))}
    </section>
  );
}
