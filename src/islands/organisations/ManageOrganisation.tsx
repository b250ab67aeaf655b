import { useEffect, useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { UserAvatar } from '../../components/UserAvatar.tsx';
import { errorMessage, isNetworkFailure, type ApiClient } from '../../lib/api/client.ts';
import { listGames, type Game } from '../../lib/api/games.ts';
import {
  addMember,
  changeMember,
  getOrganisation,
  removeMember,
  updateOrganisation,
  type MembersSaved,
  type Organisation,
  type OrganisationInput,
  type OrganisationMember,
} from '../../lib/api/organisations.ts';
import { cloneTournament, createTournament, type Tournament, type TournamentInput } from '../../lib/api/tournaments.ts';
import { listTournaments } from '../../lib/api/tournament-list.ts';
import { GIVEN_ROLES, mayChangeMember, organisationPowers } from '../../lib/domain/organisation.ts';
import { profilePath } from '../../lib/domain/participant.ts';
import { formatDay, fromLocalInputValue } from '../../lib/domain/tournament-dates.ts';
import { isFinished } from '../../lib/domain/tournament-status.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { SITE_TIME_ZONE } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { zoneMark } from '../../lib/i18n/zone-mark.ts';
import { api } from '../../lib/stores/api.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { TournamentForm } from '../../components/TournamentForm.tsx';
import ModerateOrganisation from './ModerateOrganisation.tsx';
import { OrganisationForm } from './OrganisationForm.tsx';


/**
 * Where an organisation's people run it (issue 56): its profile (owner and admins), its people
 * (add, change a role, remove, hand ownership over, leave) and its tournaments (publish, clone).
 * Everything is read with the reader's session; the server decides every change again.
 */
export default function ManageOrganisation({ slug }: { slug: string }) {
  const user = useHydratedStore($user, null);
  const loading = useHydratedStore($sessionLoading, true);
  const [organisation, setOrganisation] = useState<Organisation | null>(null);
  const [tournaments, setTournaments] = useState<Tournament[]>([]);
  const [games, setGames] = useState<Game[]>([]);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    if (!user) return;
    let stale = false;
    void (async () => {
      try {
        const found = await getOrganisation(api, slug);
        const [list, gameList] = await Promise.all([listTournaments(api, { organisation: found._id, sort: 'date_desc', limit: 100 }), listGames(api)]);
        if (stale) return;
        setOrganisation(found);
        setTournaments(list.items);
        setGames(Array.isArray(gameList) ? gameList : []);
      } catch (caught) {
        if (!stale) setFailed(errorMessage(caught, t('org.notFound')));
      }
    })();
    return () => {
      stale = true;
    };
  }, [user, slug]);

  if (loading) return <p className="text-muted">{t('org.manage.loading')}</p>;
  if (!user) {
    return (
      <div className="flex flex-col gap-3">
        <p>{t('org.manage.signIn')}</p>
        <a className="btn-primary self-start" href="/login">
          {t('nav.signIn')}
        </a>
      </div>
    );
  }
  if (failed) return <Notice tone="error">{failed}</Notice>;
  if (!organisation) return <p className="text-muted">{t('org.manage.loading')}</p>;
  const role = organisation.viewer?.role ?? null;
  // The platform's admin moderates here too: a suspended organisation has no public page to do it on.
  const moderation = <ModerateOrganisation organisationId={organisation._id} verified={organisation.verified} suspended={organisation.suspended !== null} />;
  if (role === null) return user.role === 'admin' ? moderation : <Notice tone="error">{t('org.manage.notMember')}</Notice>;
  const powers = organisationPowers(role);
  const current = organisation;

  async function run<T>(key: string, change: (client: ApiClient) => Promise<T & { message: string }>, then: (saved: T) => void) {
    setBusy(key);
    setNotice(null);
    try {
      const saved = await change(api);
      then(saved);
      setNotice({ tone: 'success', text: saved.message });
      return true;
    } catch (caught) {
      setNotice({ tone: 'error', text: isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('org.manage.failed')) });
      return false;
    } finally {
      setBusy(null);
    }
  }

  const withMembers = (saved: MembersSaved) => setOrganisation({ ...current, members: saved.members });

  function onAdd(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const name = String(data.get('user') ?? '').trim();
    const given = String(data.get('role') ?? 'staff') === 'admin' ? 'admin' : 'staff';
    void run('add', (api) => addMember(api, current._id, { user: name, role: given }), (saved: MembersSaved) => {
      withMembers(saved);
      form.reset();
    });
  }

  function onRole(member: OrganisationMember, next: string) {
    if (next === 'owner' && !window.confirm(t('org.manage.handOverConfirm', { name: member.username }))) return;
    const target = next === 'owner' ? 'owner' : next === 'admin' ? 'admin' : 'staff';
    void run(`role:${member._id}`, (api) => changeMember(api, current._id, member._id, { role: target }), (saved: MembersSaved) => {
      // Handing over makes the reader an admin.
      setOrganisation({ ...current, members: saved.members, viewer: current.viewer && target === 'owner' ? { ...current.viewer, role: 'admin' } : current.viewer });
    });
  }

  function onRemove(member: OrganisationMember) {
    const leaving = member._id === user!._id;
    if (!window.confirm(leaving ? t('org.manage.leaveConfirm') : t('org.manage.removeConfirm', { name: member.username }))) return;
    void run(`remove:${member._id}`, (api) => removeMember(api, current._id, member._id), (saved: MembersSaved) => {
      if (leaving) window.location.assign(`/org/${current.slug}`);
      else withMembers(saved);
    });
  }

  function onProfile(body: OrganisationInput) {
    void run('profile', (api) => updateOrganisation(api, current._id, body), (saved: { organisation: Organisation }) => {
      if (saved.organisation.slug !== current.slug) window.history.replaceState(null, '', `/org/${saved.organisation.slug}/manage`);
      setOrganisation(saved.organisation);
    });
  }

  // The organiser goes on to the new tournament's page, where its applications and stages are run.
  async function onCreate(body: TournamentInput): Promise<boolean> {
    return run('create', (api) => createTournament(api, { ...body, organisation: current._id }), (saved: { tournament: Tournament }) =>
      window.location.assign(`/tournaments/${saved.tournament._id}`),
    );
  }

  function onClone(event: SubmitEvent<HTMLFormElement>, source: Tournament) {
    event.preventDefault();
    // The new start on the source's clock: the clone keeps its zone.
    const date = fromLocalInputValue(String(new FormData(event.currentTarget).get('date') ?? ''), source.timeZone ?? SITE_TIME_ZONE);
    if (!date) return setNotice({ tone: 'error', text: t('manage.fillAll') });
    void run(`clone:${source._id}`, (api) => cloneTournament(api, source._id, date), (saved: { tournament: Tournament }) =>
      setTournaments([saved.tournament, ...tournaments]),
    );
  }

  return (
    <div className="flex flex-col gap-8">
      <h1 className="text-2xl font-bold wrap-anywhere md:text-3xl">{t('org.manage.title', { name: current.name })}</h1>
      {current.suspended && <Notice tone="error">{t('org.suspendedNotice', { reason: current.suspended.reason })}</Notice>}
      {moderation}
      <div aria-live="polite" className="empty:hidden">
        {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      </div>

      {powers.manage && (
        <section aria-labelledby="org-profile" className="card flex flex-col gap-4">
          <h2 id="org-profile" className="text-xl font-bold">
            {t('org.manage.profile')}
          </h2>
          <OrganisationForm key={current.slug} organisation={current} busy={busy === 'profile'} submitLabel={t('org.manage.save')} onSubmit={onProfile} />
        </section>
      )}

      <section aria-labelledby="org-people" className="card flex flex-col gap-4">
        <h2 id="org-people" className="text-xl font-bold">
          {t('org.manage.people')}
        </h2>
        <ul className="flex flex-col gap-2">
          {current.members.map((member) => {
            const changeable = mayChangeMember(role, member.role, member.role === 'admin' ? 'staff' : 'admin');
            return (
              <li key={member._id} className="flex flex-wrap items-center gap-3 rounded-lg bg-surface-2 px-3 py-2">
                <UserAvatar user={member} href={profilePath('user', member._id)} className="min-w-0 flex-[1_1_12rem] font-medium" />
                {changeable ? (
                  <select
                    className="field w-auto max-w-full"
                    aria-label={t('org.manage.changeRole', { name: member.username })}
                    value={member.role}
                    disabled={busy !== null}
                    onChange={(event) => onRole(member, event.target.value)}
                  >
                    {GIVEN_ROLES.map((given) => (
                      <option key={given} value={given}>
                        {t(`organisation.roleLabel.${given}`)}
                      </option>
                    ))}
                    {powers.own && <option value="owner">{t('org.manage.handOver')}</option>}
                  </select>
                ) : (
                  <span className="text-sm text-muted">{t(`organisation.roleLabel.${member.role}`)}</span>
                )}
                {(changeable || (member._id === user._id && member.role !== 'owner')) && (
                  <button type="button" className="btn-ghost px-3 py-1 text-xs text-danger" disabled={busy !== null} onClick={() => onRemove(member)}>
                    {member._id === user._id ? t('org.manage.leave') : t('org.manage.remove')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
        {powers.manage && (
          <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={onAdd}>
            <Field label={t('org.manage.addUser')} id="org-add-user" name="user" required limit={64} wrapperClassName="min-w-0 sm:flex-1" />
            <label htmlFor="org-add-role" className="flex flex-col gap-1 text-sm font-medium">
              {t('org.manage.addRole')}
              <select id="org-add-role" name="role" className="field" defaultValue="staff">
                {GIVEN_ROLES.map((given) => (
                  <option key={given} value={given}>
                    {t(`organisation.roleLabel.${given}`)}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="btn-primary self-start sm:self-auto" disabled={busy !== null}>
              {t('org.manage.add')}
            </button>
          </form>
        )}
      </section>

      <section aria-labelledby="org-tournaments" className="card flex flex-col gap-4">
        <h2 id="org-tournaments" className="text-xl font-bold">
          {t('org.manage.tournaments')}
        </h2>
        {powers.manage && (
          <details className="rounded-lg bg-surface-2 p-3">
            <summary className="cursor-pointer font-semibold">{t('org.manage.newTournament')}</summary>
            <div className="mt-3">
              <TournamentForm games={games} busy={busy === 'create'} onSubmit={onCreate} onInvalid={(text) => setNotice({ tone: 'error', text })} />
            </div>
          </details>
        )}
        {tournaments.length === 0 ? (
          <p className="text-sm text-muted">{t('org.noTournaments')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {tournaments.map((tournament) => (
              <li key={tournament._id} className="flex flex-col gap-2 rounded-lg bg-surface-2 px-3 py-2">
                <div className="flex flex-wrap items-center gap-2">
                  <a href={`/tournaments/${tournament._id}`} className="min-w-0 basis-full font-semibold break-words sm:basis-auto sm:flex-1">
                    {tournament.title}
                  </a>
                  <time dateTime={tournament.date} className="text-sm text-muted">
                    {formatDay(tournament.date)}
                  </time>
                  <StatusBadge status={tournament.status} />
                  {!isFinished(tournament.status) && (
                    <a className="btn-ghost px-3 py-1 text-sm" href={`/tournaments/${tournament._id}/control`}>
                      {t('control.open')}
                    </a>
                  )}
                </div>
                {powers.manage && (
                  <form className="flex flex-wrap items-end gap-2" onSubmit={(event) => onClone(event, tournament)} aria-label={t('org.manage.cloneLabel', { title: tournament.title })}>
                    <Field label={`${t('org.manage.cloneDate')} ${zoneMark(tournament.timeZone ?? SITE_TIME_ZONE)}`} id={`clone-${tournament._id}`} name="date" type="datetime-local" required wrapperClassName="min-w-0" />
                    <button type="submit" className="btn-ghost" disabled={busy !== null}>
                      {t('org.manage.clone')}
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
