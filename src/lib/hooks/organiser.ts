import { canOrganise } from '../domain/organisers.ts';
import { $user } from '../stores/session.ts';
import { useHydratedStore } from './hydration.ts';

/**
 * Whether the reader organises this tournament (decision 016): an admin, or its staff. The islands
 * that show organiser tools ask this one rule; false until hydrated, as the server rendered. The
 * server decides again on every request.
 */
export function useCanOrganise(tournamentId: string): boolean {
  return canOrganise(useHydratedStore($user, null), tournamentId);
}
