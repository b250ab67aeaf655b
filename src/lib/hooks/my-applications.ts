import { useEffect, useState } from 'react';
import { getMyApplications } from '../api/my-applications.ts';
import type { LiveApplicationStatus } from '../domain/application-rules.ts';
import { $user } from '../stores/session.ts';
import { api } from '../stores/api.ts';
import { useHydratedStore } from './hydration.ts';

const NONE: ReadonlyMap<string, LiveApplicationStatus> = new Map();

/**
 * The tournaments the signed-in reader (or their team) applied to, by id, with the application's
 * status (`GET /users/me/applications`): empty for a guest, while hydrating and until it arrives,
 * so a list of cards first shows what the server rendered for everyone.
 */
export function useMyApplications(): ReadonlyMap<string, LiveApplicationStatus> {
  const userId = useHydratedStore($user, null)?._id ?? null;
  const [held, setHeld] = useState<{ userId: string; byTournament: ReadonlyMap<string, LiveApplicationStatus> } | null>(null);
  useEffect(() => {
    if (!userId) return;
    let live = true;
    getMyApplications(api)
      .then(({ applications }) => {
        if (live) setHeld({ userId, byTournament: new Map(applications.map((a) => [a.tournament, a.status])) });
      })
      // Left as the server rendered it: each card still leads to its tournament, whose page knows.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [userId]);
  return userId && held?.userId === userId ? held.byTournament : NONE;
}
