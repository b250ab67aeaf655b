import { useEffect, useEffectEvent, useState } from 'react';
import { getOrganisation } from '../../lib/api/organisations.ts';
import { organisationPowers } from '../../lib/domain/organisation.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { api } from '../../lib/stores/api.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';

/**
 * What a section of an organisation's manage page reads, for its owner and admins only (issue 60):
 * the organisation `slug` names is looked up, and `read` runs once the signed-in reader may manage
 * it. `found` is null while that is under way, for anyone else, for a suspended organisation, and
 * when `read` fails or gives nothing: the section then shows nothing, and the server decides every
 * change again. `update` replaces what was read (after a change the section made).
 */
export function useManagedRead<T>(slug: string, read: (organisationId: string) => Promise<T | undefined>) {
  const user = useHydratedStore($user, null);
  const loading = useHydratedStore($sessionLoading, true);
  const [found, setFound] = useState<{ organisationId: string; value: T } | null>(null);
  const readFor = useEffectEvent(read);

  useEffect(() => {
    if (!user) return;
    let stale = false;
    void (async () => {
      try {
        const organisation = await getOrganisation(api, slug);
        if (organisation.suspended !== null || !organisationPowers(organisation.viewer?.role ?? null).manage) return;
        const value = await readFor(organisation._id);
        if (!stale && value !== undefined) setFound({ organisationId: organisation._id, value });
      } catch {
        // Without an answer the section stays hidden.
      }
    })();
    return () => {
      stale = true;
    };
  }, [user, slug]);

  const update = (value: T) => setFound((now) => now && { ...now, value });
  return { found: loading || !user ? null : found, update };
}
