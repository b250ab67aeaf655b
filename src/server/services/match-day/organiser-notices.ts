/**
 * What rings the organisers' bell on match day (issue 57): a dispute, and a side calling for help.
 * Each goes to everyone who organises the tournament (`organiserIds`), by their notice settings
 * (bell, and a letter unless they turned it off), and links to the tournament's control room.
 */
import type { Tx } from '../../db/client.ts';
import { organiserIds } from '../competition/staff.ts';
import { announce } from '../notices/notices.ts';

/** The match as the organisers' notice names it: its sides. */
export const matchLabel = (a: string | null | undefined, b: string | null | undefined): string => `${a || '—'} – ${b || '—'}`;

/** Tells the tournament's organisers, in the caller's transaction. */
export async function tellOrganisers(tx: Tx, tournament: { id: string; title: string }, kind: 'matchDisputed' | 'matchCalled' | 'matchNoShow', match: string): Promise<void> {
  const ids = await organiserIds(tx, tournament.id);
  await announce(
    tx,
    ids.map((userId) => ({
      userId,
      kind,
      params: { tournament: tournament.title, match },
      link: `/tournaments/${tournament.id}/control`,
      tournamentId: tournament.id,
    })),
  );
}
