/**
 * Linked game accounts in the demo (issue 60, decision 044): Kyiv_Cyborg linked Steam and Discord,
 * KozakSniper Steam, so their profiles show a Steam profile and a Discord name. The SteamIDs are
 * made-up ones in Steam's individual range; with sign-in unset the links still show, and nobody
 * can sign in with them.
 */
import type { Tx } from '../client.ts';
import { linkedAccounts } from '../schema/index.ts';
import { steamProfileUrl } from '../../../lib/domain/linked-accounts.ts';

export const DEMO_LINKS = [
  { nick: 'Kyiv_Cyborg', provider: 'steam', id: '76561190000000101', name: 'Kyiv Cyborg', days: -30 },
  { nick: 'Kyiv_Cyborg', provider: 'discord', id: '900000000000000101', name: 'kyiv_cyborg', days: -30 },
  { nick: 'KozakSniper', provider: 'steam', id: '76561190000000102', name: 'KozakSniper', days: -12 },
] as const;

export async function seedLinkedAccounts(tx: Tx, { userId, at }: { userId: (nick: string) => string; at: (days: number) => Date }): Promise<void> {
  await tx.insert(linkedAccounts).values(
    DEMO_LINKS.map((link) => ({
      userId: userId(link.nick),
      provider: link.provider,
      providerAccountId: link.id,
      displayName: link.name,
      profileUrl: link.provider === 'steam' ? steamProfileUrl(link.id) : null,
      linkedAt: at(link.days),
    })),
  );
}
