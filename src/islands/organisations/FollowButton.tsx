import { useEffect, useState } from 'react';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { follow, getOrganisation, unfollow } from '../../lib/api/organisations.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { organisationPowers } from '../../lib/domain/organisation.ts';
import { currentLocale, plural, t } from '../../lib/i18n/index.ts';
import { $user } from '../../lib/stores/session.ts';

interface Props {
  organisationId: string;
  slug: string;
  /** As the server rendered them, the same for every reader. */
  followers: number;
}

/**
 * The organisation page's follow button and follower count (issue 56), and a link to manage it for
 * its owner and admins. The page is the same HTML for everyone; the reader's own state is read
 * once signed in. A guest is sent to sign in.
 */
export default function FollowButton({ organisationId, slug, followers: initial }: Props) {
  const user = useHydratedStore($user, null);
  const [followers, setFollowers] = useState(initial);
  const [following, setFollowing] = useState<boolean | null>(null);
  const [manages, setManages] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!user) return;
    let stale = false;
    void import('../../lib/stores/api.ts').then(({ api }) =>
      getOrganisation(api, organisationId).then(
        (found) => {
          if (stale) return;
          setFollowing(found.viewer?.following ?? false);
          setFollowers(found.followers);
          setManages(organisationPowers(found.viewer?.role ?? null).manage);
        },
        () => undefined,
      ),
    );
    return () => {
      stale = true;
    };
  }, [user, organisationId]);

  async function toggle() {
    setBusy(true);
    setProblem(null);
    try {
      const { api } = await import('../../lib/stores/api.ts');
      const saved = following ? await unfollow(api, organisationId) : await follow(api, organisationId);
      setFollowing(saved.following);
      setFollowers(saved.followers);
    } catch (caught) {
      setProblem(isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('org.manage.failed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <span className="text-sm text-muted" data-followers={followers}>
        {plural(currentLocale(), 'count.followers', followers)}
      </span>
      {user ? (
        <button type="button" className={following ? 'btn-ghost' : 'btn-primary'} disabled={busy || following === null} aria-pressed={following ?? false} onClick={() => void toggle()}>
          {t(following ? 'org.unfollow' : 'org.follow')}
        </button>
      ) : (
        <a className="btn-primary" href="/login">
          {t('org.followSignIn')}
        </a>
      )}
      {manages && (
        <a className="btn-ghost" href={`/org/${slug}/manage`}>
          {t('org.manage')}
        </a>
      )}
      {problem && (
        <p role="alert" className="w-full text-sm text-danger">
          {problem}
        </p>
      )}
    </div>
  );
}
