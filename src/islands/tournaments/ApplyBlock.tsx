import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { apply, deleteApplication } from '../../lib/api/applications.ts';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { getEligibility, type Eligibility } from '../../lib/api/tournaments.ts';
import { TEAM_SIZE } from '../../lib/domain/application-rules.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $sessionLoading, $token, $user } from '../../lib/stores/session.ts';
import { useHydrated } from '../../lib/hooks/hydration.ts';
import type { Schedule } from '../../lib/domain/registration.ts';
import { useCanOrganise } from '../../lib/hooks/organiser.ts';
import { CheckInButton } from './CheckInButton.tsx';
import { LINKED_ACCOUNTS_SECTION } from '../../lib/domain/linked-accounts.ts';
import { signInPath } from '../../lib/domain/address.ts';

interface Props {
  tournamentId: string;
  soloOnly: boolean;
  /** Check-in (issue 22): the tournament's settings and the window's effective times, when it uses one. */
  checkIn?: { schedule: Schedule; opensAt: string; closesAt: string } | null;
  /** The organisation hosting it (issue 56), whose people organise it. */
  hostId?: string | null;
}

type State = { kind: 'checking' } | { kind: 'ready'; eligibility: Eligibility } | { kind: 'error'; message: string };

const sizeParams = { min: TEAM_SIZE.min, max: TEAM_SIZE.max };

/**
 * What a guest is offered: sign in (or register) and come back to this block. `marked`: the
 * server's HTML, hidden before the first paint for a reader with a stored session (global.css).
 */
function GuestOffer({ tournamentId, marked }: { tournamentId: string; marked: boolean }) {
  const back = `/tournaments/${tournamentId}#apply`;
  return (
    <div className="flex flex-col gap-2" data-guest-only={marked ? '' : undefined}>
      <a href={signInPath(back)} className="btn-primary self-start">
        {t('apply.signIn')}
      </a>
      <p className="text-sm text-muted">
        {t('apply.noAccount')} <a href={signInPath(back, '/register')}>{t('apply.register')}</a>
      </p>
    </div>
  );
}

/**
 * The apply block of a tournament (SPEC §2, §4–§5): a guest is asked to sign in; a player applies
 * solo, a captain for their team of 5–7. The server's verdict (the same rules as POST
 * /applications) decides what is offered; «Заявку вже подано» once a live application exists.
 *
 * The page's HTML is a guest's, shared by every guest (held, cached), and `client:interact`
 * hydrates the block only for a reader with a stored session: so the server renders the guest's
 * offer, which works without React, and beside it the signed-in reader's «checking» line; the
 * line Base.astro runs before the first paint marks a stored session on <body>, and global.css
 * shows only the one that fits, so neither reader sees the other's.
 */
export default function ApplyBlock({ tournamentId, soloOnly, checkIn = null, hostId = null }: Props) {
  const organises = useCanOrganise(tournamentId, hostId);
  // Until hydrated, render what the server did (no session there), so hydration always matches.
  const hydrated = useHydrated();
  const storedUser = useStore($user);
  const user = hydrated ? storedUser : null;
  const sessionLoading = useStore($sessionLoading);
  const token = useStore($token);
  const [state, setState] = useState<State>({ kind: 'checking' });
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  // Bumped after an application, so the standing is fetched again.
  const [version, setVersion] = useState(0);

  const userId = user?._id;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    getEligibility(api, tournamentId)
      .then((eligibility) => live && setState({ kind: 'ready', eligibility }))
      .catch((error: unknown) => live && setState({ kind: 'error', message: errorMessage(error, t('apply.loadError')) }));
    return () => {
      live = false;
    };
  }, [userId, tournamentId, version]);

  async function submit(teamId: string | null) {
    setBusy(true);
    setResult(null);
    const fallback = t(teamId ? 'apply.teamError' : 'apply.error');
    try {
      const saved = await apply(api, { tournament: tournamentId, ...(teamId ? { team: teamId } : {}) });
      setResult({ tone: 'success', text: saved.message });
    } catch (error) {
      setResult({ tone: 'error', text: isNetworkFailure(error) ? fallback : errorMessage(error, fallback) });
    } finally {
      setVersion((v) => v + 1);
      setBusy(false);
    }
  }

  async function withdraw(id: string) {
    if (!window.confirm(t('apply.confirmWithdraw'))) return;
    setBusy(true);
    setResult(null);
    try {
      setResult({ tone: 'success', text: (await deleteApplication(api, id)).message });
    } catch (error) {
      setResult({ tone: 'error', text: errorMessage(error, t('apply.withdrawError')) });
    } finally {
      setVersion((v) => v + 1);
      setBusy(false);
    }
  }

  let body;
  if (!hydrated) {
    // The server knows nobody: both readers' first views, one of them shown by the session mark on <body>.
    body = (
      <>
        <GuestOffer tournamentId={tournamentId} marked />
        <p className="text-sm text-muted" data-signed-in-only>
          {t('apply.checking')}
        </p>
      </>
    );
  } else if (!user && !token) {
    // A guest who reached for the block, or a reader who signed out on this page.
    body = <GuestOffer tournamentId={tournamentId} marked={false} />;
  } else if (sessionLoading || (user && state.kind === 'checking')) {
    body = <p className="text-sm text-muted">{t('apply.checking')}</p>;
  } else if (!user) {
    // The stored session was refused, or could not be checked: this page goes on as a guest's.
    body = <GuestOffer tournamentId={tournamentId} marked={false} />;
  } else if (state.kind === 'error') {
    body = <Notice tone="error">{state.message}</Notice>;
  } else if (state.kind === 'ready') {
    const { refusal, application, team } = state.eligibility;
    const disabled = (text: string) => (
      <button type="button" className="btn-ghost self-start" disabled>
        {text}
      </button>
    );
    if (application) {
      const standing =
        application.status === 'waitlisted'
          ? t('apply.statusWaitlisted', { position: application.position ?? 1 })
          : t(application.status === 'approved' ? 'apply.statusApproved' : 'apply.statusPending');
      body = (
        <>
          {disabled(t('apply.already'))}
          <p className="text-sm text-muted">{standing}</p>
          {checkIn && application.mine && application.status !== 'pending' && (
            <CheckInButton
              tournamentId={tournamentId}
              {...checkIn}
              checkedInAt={application.checkedInAt}
              waitlisted={application.status === 'waitlisted'}
              onChange={() => setVersion((v) => v + 1)}
            />
          )}
          {application.mine && (
            <button type="button" className="btn-ghost self-start text-danger" disabled={busy} onClick={() => void withdraw(application._id)}>
              {t('apply.withdraw')}
            </button>
          )}
        </>
      );
    } else if (organises) {
      // Its organisers run it rather than play in it (issue 57): the way to the applications instead of «Подати заявку».
      body = (
        <p className="text-sm text-muted">
          {t('apply.youOrganise')}{' '}
          <a href={`/tournaments/${tournamentId}/control`}>{t('control.open')}</a>
        </p>
      );
    } else if (refusal === 'notPending' || refusal === 'bracketDrawn') {
      // Closed since the page was rendered (the bracket was drawn, or the tournament started).
      body = <p className="text-sm text-muted">{t(`apply.refused.${refusal}`)}</p>;
    } else if (refusal === 'noTeam') {
      body = (
        <>
          <p className="text-sm text-muted">{t('apply.refused.noTeam', sizeParams)}</p>
          <a href="/team" className="btn-ghost self-start">
            {t('apply.createTeam')}
          </a>
        </>
      );
    } else if (refusal === 'steamRequired' || refusal === 'teamSteamRequired') {
      // The organiser asks for Steam (issue 60): the way to link it, in the cabinet.
      body = (
        <>
          <p className="text-sm text-muted">{t(`apply.refused.${refusal}`)}</p>
          <a href={LINKED_ACCOUNTS_SECTION} className="btn-ghost self-start">
            {t('linked.goLink')}
          </a>
        </>
      );
    } else if (refusal) {
      body = disabled(t(`apply.refused.${refusal}`, sizeParams));
    } else {
      body = (
        <button type="button" className="btn-primary self-start" disabled={busy} onClick={() => void submit(soloOnly ? null : (team?._id ?? null))}>
          {busy ? t('apply.sending') : soloOnly || !team ? t('apply.button') : t('apply.teamButton', { team: team.name })}
        </button>
      );
    }
    if (team && !soloOnly && !application) {
      body = (
        <>
          {body}
          <p className="text-sm text-muted">{t('apply.teamInfo', { team: team.name, members: team.members })}</p>
        </>
      );
    }
  }

  return (
    <div className="flex flex-col gap-3">
      {body}
      {result && <Notice tone={result.tone}>{result.text}</Notice>}
    </div>
  );
}
