/**
 * Venue networks in the demo (issue 57, decision 035): the computer club's evening cup has its
 * hall's LAN approved by the site's admin, and its Valorant cup waits for the admin's decision, so
 * the control room and the admin's «Мережі залів» show both on a fresh start. Written as the
 * services would have left them, audit log included.
 */
import { eq } from 'drizzle-orm';
import type { Tx } from '../client.ts';
import { venueNetworkFactory } from '../factories/index.ts';
import { users } from '../schema/index.ts';
import { recordAudit } from '../../services/competition/audit.ts';

interface DemoVenue {
  tournament: string;
  requestedBy: string;
  networks: string[];
  note: string;
  approved: boolean;
}

export const DEMO_VENUES: DemoVenue[] = [
  { tournament: 'lol-evening-check-in', requestedBy: 'LvivLion', networks: ['192.168.50.0/24'], note: 'Кіберклуб «Львів», головна зала', approved: true },
  {
    tournament: 'valorant-carpathian-cup',
    requestedBy: 'Karpaty_Wolf',
    networks: ['198.51.100.24/29', '2001:db8:57::/48'],
    note: 'Фестиваль кіберспорту, Львів',
    approved: false,
  },
];

/** Writes the demo's venue networks; `userId` and `tournamentId` find the demo's rows, `at` makes a moment `days` from now. */
export async function seedVenues(
  tx: Tx,
  { userId, tournamentId, at }: { userId: (nick: string) => string; tournamentId: (key: string) => string; at: (days: number) => Date },
): Promise<void> {
  const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  for (const demo of DEMO_VENUES) {
    const requestedBy = userId(demo.requestedBy);
    const decided = demo.approved ? { status: 'approved' as const, decidedBy: admin?.id ?? null, decidedAt: at(-1) } : {};
    const row = await venueNetworkFactory.insert(tx, {
      tournamentId: tournamentId(demo.tournament),
      networks: demo.networks,
      note: demo.note,
      requestedBy,
      createdAt: at(-2),
      ...decided,
    });
    const asked = { networks: row.networks, note: row.note, status: 'pending' };
    await recordAudit(tx, [
      { tournamentId: row.tournamentId, actor: { id: requestedBy }, kind: 'venueRequested', subjectId: row.id, after: asked },
      ...(demo.approved && admin
        ? [
            {
              tournamentId: row.tournamentId,
              actor: { id: admin.id },
              kind: 'venueApproved' as const,
              subjectId: row.id,
              before: asked,
              after: { ...asked, status: 'approved' },
            },
          ]
        : []),
    ]);
  }
}
