/**
 * Live updates (issue 22): what changed, told to whoever watches. A service publishes an event
 * after its transaction committed; the SSE route (`GET /api/tournaments/{id}/events`) and the
 * user stream subscribe. Events name what changed, never what it is now: a viewer reads the new
 * state through the ordinary (cached, authorised) reads.
 *
 * This module is the one owner of the event names and of the transport between instances.
 */
import { EventEmitter } from 'node:events';

/** What changed in a tournament. */
export const TOURNAMENT_EVENTS = ['match', 'report', 'checkIn', 'stage', 'application', 'tournament'] as const;
export type TournamentEventKind = (typeof TOURNAMENT_EVENTS)[number];

/** What changed for one user: their bell, or their team (roster, applications, chat). */
export const USER_EVENTS = ['notification', 'team'] as const;
export type UserEventKind = (typeof USER_EVENTS)[number];

export interface TournamentEvent {
  tournamentId: string;
  kind: TournamentEventKind;
  /** The match concerned, for `match` and `report`. */
  matchId?: string;
  /** The tournament's competition version after the change, when it has one. */
  version?: number;
}

export interface UserEvent {
  userId: string;
  kind: UserEventKind;
}

const local = new EventEmitter();
local.setMaxListeners(0);

/** Tells this instance's viewers of the tournament (and, once a transport is plugged in, every instance's). Call after commit. */
export function publishTournament(event: TournamentEvent): void {
  local.emit(`t:${event.tournamentId}`, event);
}

/** Tells a user's open pages that their bell or team changed. Call after commit. */
export function publishUser(event: UserEvent): void {
  local.emit(`u:${event.userId}`, event);
}

export function subscribeTournament(tournamentId: string, listener: (event: TournamentEvent) => void): () => void {
  local.on(`t:${tournamentId}`, listener);
  return () => local.off(`t:${tournamentId}`, listener);
}

export function subscribeUser(userId: string, listener: (event: UserEvent) => void): () => void {
  local.on(`u:${userId}`, listener);
  return () => local.off(`u:${userId}`, listener);
}
