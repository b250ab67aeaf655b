/**
 * API keys in the demo (issue 60, decision 045): the Kyiv cyberleague has one read key for its
 * site's table, made by its owner and used a day ago. Its secret is made here and thrown away:
 * only its digest is stored, so nobody, the seed included, can use it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { API_KEY_PREFIX, API_KEY_SHOWN } from '../../../lib/domain/api-keys.ts';
import type { Tx } from '../client.ts';
import { organisationApiKeys, organisationMembers, organisations } from '../schema/index.ts';

export async function seedApiKeys(tx: Tx, { at }: { at: (days: number) => Date }): Promise<void> {
  const [league] = await tx
    .select({ id: organisations.id, owner: organisationMembers.userId })
    .from(organisations)
    .innerJoin(organisationMembers, and(eq(organisationMembers.organisationId, organisations.id), eq(organisationMembers.role, 'owner')))
    .where(eq(organisations.slug, 'kyiv-cyberleague'));
  if (!league) return;
  const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  await tx.insert(organisationApiKeys).values({
    organisationId: league.id,
    name: 'Таблиця на сайті ліги',
    scope: 'read',
    hash: createHash('sha256').update(secret).digest('hex'),
    prefix: secret.slice(0, API_KEY_SHOWN),
    createdBy: league.owner,
    createdAt: at(-14),
    lastUsedAt: at(-1),
  });
}
