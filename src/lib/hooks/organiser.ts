import { canOrganise } from '../domain/organisers.ts';
import { $user } from '../stores/session.ts';
import { useHydratedStore } from './hydration.ts';

/**
 * Whether the reader organises this tournament (decision 016): an admin, its staff, or the people of
 * the organisation hosting it (`hostId`, issue 56). The islands
 * that show organiser tools ask this one rule; false until hydrated, as the server rendered. The
 * server decides again on every request.
 */
export function useCanOrganise(tournamentId: string, hostId: string | null = null): boolean {
  return canOrganise(useHydratedStore($user, null), tournamentId, hostId);
}
