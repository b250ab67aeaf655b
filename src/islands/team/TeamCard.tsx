import { useState, type ReactNode, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { changeTeamLogo, inviteToTeam, LOGO_URL_MAX, QUERY_MAX, removeTeamInvite, removeTeamMember, type Team, type TeamMessage } from '../../lib/api/teams.ts';
import { isCaptain, TEAM_MAX_MEMBERS } from '../../lib/domain/team.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import MatchHistory from '../../components/MatchHistory.tsx';
import { UserAvatar } from '../../components/UserAvatar.tsx';
import { profilePath } from '../../lib/domain/participant.ts';
import { TeamLogo } from '../../components/TeamLogo.tsx';
import { putTeam } from './store.ts';
import { TeamChat } from './TeamChat.tsx';
import { TeamMatches } from './TeamMatches.tsx';

function Badge({ children }: { children: ReactNode }) {
  return <span className="rounded-full border border-accent px-2 py-0.5 text-xs font-semibold text-accent">{children}</span>;
}

/** One of 'Мої команди': roster, invites, the captain's tools, chat and match history. */
export function TeamCard({ team, userId, current }: { team: Team; userId: string; current: boolean }) {
  const captain = isCaptain(team, userId);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  /** Runs one change; the server answers with the fresh team and a message. */
  async function run(key: string, change: () => Promise<TeamMessage>, onDone?: () => void) {
    setBusy(key);
    setNotice(null);
    try {
      const result = await change();
      putTeam(result.team);
      setNotice({ tone: 'success', text: result.message });
      onDone?.();
    } catch (caught) {
      setNotice({ tone: 'error', text: isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('team.saveError')) });
    } finally {
      setBusy(null);
    }
  }

  function onInvite(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const query = String(new FormData(form).get('query') ?? '').trim();
    if (!query) {
      setNotice({ tone: 'error', text: t('team.enterNick') });
      return;
    }
    void run('invite', () => inviteToTeam(api, team._id, { query }), () => form.reset());
  }

  function onLogo(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const logoUrl = String(new FormData(form).get('logoUrl') ?? '').trim();
    if (!logoUrl) {
      setNotice({ tone: 'error', text: t('team.enterLogo') });
      return;
    }
    void run('logo', () => changeTeamLogo(api, team._id, { logoUrl }), () => form.reset());
  }

  function onRemoveMember(member: Team['members'][number]) {
    if (!window.confirm(t('team.confirmRemoveMember', { name: member.username }))) return;
    void run(`member:${member._id}`, () => removeTeamMember(api, team._id, member._id));
  }

  function onRemoveInvite(invite: Team['invites'][number]) {
    if (!window.confirm(t('team.confirmRemoveInvite', { name: invite.username }))) return;
    void run(`invite:${invite.inviteId}`, () => removeTeamInvite(api, team._id, invite.inviteId));
  }

  const titleId = `team-${team._id}`;
  const full = team.members.length >= TEAM_MAX_MEMBERS;
  return (
    <article className="card flex flex-col gap-6" aria-labelledby={titleId}>
      <header className="flex flex-wrap items-center gap-4">
        <TeamLogo src={team.logoUrl} name={team.name} alt={t('team.logoAlt', { name: team.name })} />
        <div className="flex min-w-0 flex-col gap-1">
          <h3 id={titleId} className="break-words text-xl font-bold">
            {team.name}
          </h3>
          <p className="flex flex-wrap gap-2">
            {captain && <Badge>{t('team.youAreCaptain')}</Badge>}
            {current && <span className="rounded-full bg-surface-2 px-2 py-0.5 text-xs text-muted">{t('team.current')}</span>}
          </p>
          <a href={profilePath('team', team._id)} className="self-start text-sm">
            {t('profile.teamPage')}
          </a>
        </div>
      </header>

      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <div className="flex flex-col gap-6">
          <section aria-labelledby={`${titleId}-members`}>
            <h4 id={`${titleId}-members`} className="mb-2 font-semibold">
              {t('team.members', { count: team.members.length, max: TEAM_MAX_MEMBERS })}
            </h4>
            <ul className="flex flex-col gap-2">
              {team.members.map((member) => {
                const isTeamCaptain = member._id === team.captain._id;
                return (
                  <li key={member._id} className="flex items-center gap-3 rounded-lg bg-surface-2 px-3 py-2">
                    <span className="flex min-w-0 flex-1 items-center gap-1">
                      <UserAvatar user={member} href={profilePath('user', member._id)} className="min-w-0" />
                      {member._id === userId && <span className="shrink-0 text-muted">({t('team.you')})</span>}
                    </span>
                    {isTeamCaptain && <Badge>{t('team.captainBadge')}</Badge>}
                    {captain && !isTeamCaptain && (
                      <button
                        type="button"
                        className="btn-ghost px-3 py-1 text-xs text-danger"
                        aria-label={t('team.removeMemberLabel', { name: member.username })}
                        disabled={busy !== null}
                        onClick={() => onRemoveMember(member)}
                      >
                        {t('team.removeMember')}
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
            {full && <p className="mt-2 text-sm text-muted">{t('team.full', { max: TEAM_MAX_MEMBERS })}</p>}
          </section>

          <section aria-labelledby={`${titleId}-invites`}>
            <h4 id={`${titleId}-invites`} className="mb-2 font-semibold">
              {t('team.invites')}
            </h4>
            {team.invites.length === 0 ? (
              <p className="text-sm text-muted">{t('team.noInvites')}</p>
            ) : (
              <ul className="flex flex-col gap-2">
                {team.invites.map((invite) => (
                  <li key={invite.inviteId} className="flex items-center gap-3 rounded-lg border border-dashed border-line px-3 py-2">
                    <UserAvatar user={invite} className="flex-1" />
                    {captain && (
                      <button
                        type="button"
                        className="btn-ghost px-3 py-1 text-xs text-danger"
                        aria-label={t('team.removeInviteLabel', { name: invite.username })}
                        disabled={busy !== null}
                        onClick={() => onRemoveInvite(invite)}
                      >
                        {t('team.removeInvite')}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>

          {captain && (
            // Label and field side by side only where both fit on one line; stacked in a narrow column.
            <div className="@container flex flex-col gap-4">
              <form onSubmit={onInvite} noValidate>
                <div className="flex flex-col gap-2 @md:flex-row @md:items-end">
                  <Field label={t('team.inviteLabel')} id={`${titleId}-query`} name="query" wrapperClassName="min-w-0 flex-1" limit={QUERY_MAX} autoComplete="off" />
                  <button type="submit" className="btn-primary shrink-0 self-start @md:self-auto" disabled={busy !== null || full}>
                    {busy === 'invite' ? t('team.busy') : t('team.inviteButton')}
                  </button>
                </div>
              </form>
              <form onSubmit={onLogo} noValidate>
                <div className="flex flex-col gap-2 @md:flex-row @md:items-end">
                  <Field
                    label={t('team.logoChangeLabel')}
                    id={`${titleId}-logo`}
                    name="logoUrl"
                    type="url"
                    inputMode="url"
                    wrapperClassName="min-w-0 flex-1"
                    limit={LOGO_URL_MAX}
                    placeholder="https://"
                  />
                  <button type="submit" className="btn-ghost shrink-0 self-start @md:self-auto" disabled={busy !== null}>
                    {busy === 'logo' ? t('team.busy') : t('team.logoButton')}
                  </button>
                </div>
              </form>
            </div>
          )}
        </div>

        <TeamChat teamId={team._id} teamName={team.name} userId={userId} />
      </div>

      <TeamMatches teamId={team._id} userId={userId} />
      <MatchHistory kind="team" id={team._id} headingLevel={4} />
    </article>
  );
}
