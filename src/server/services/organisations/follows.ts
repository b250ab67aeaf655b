/**
 * Following an organisation (issue 56): a follower is told when it publishes a tournament (a
 * notice, so in the bell and by letter as their settings say). Following twice, or unfollowing
 * what one does not follow, changes nothing and is no error.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { OrganisationCard } from '../../../lib/api/organisations.ts';
import type { Tx } from '../../db/client.ts';
import { organisationFollows, organisations } from '../../db/schema/index.ts';
import { changed } from '../live/changes.ts';
import { findOrganisation, followerCount, isPublic, publicOrganisation } from './organisations.ts';

export type FollowResult = { ok: true; name: string; following: boolean; followers: number } | { ok: false; reason: 'notFound' };

/** Follows (`on`) or unfollows a public organisation. */
export async function setFollowing(db: Tx, organisationId: string, userId: string, on: boolean): Promise<FollowResult> {
  return db.transaction(async (tx): Promise<FollowResult> => {
    const organisation = await findOrganisation(tx, organisationId);
    if (!organisation || !isPublic(organisation)) return { ok: false, reason: 'notFound' };
    if (on) await tx.insert(organisationFollows).values({ organisationId, userId }).onConflictDoNothing();
    else await tx.delete(organisationFollows).where(and(eq(organisationFollows.organisationId, organisationId), eq(organisationFollows.userId, userId)));
    changed('organisations');
    return { ok: true, name: organisation.name, following: on, followers: await followerCount(tx, organisationId) };
  });
}

/** The public organisations a user follows, by name: the cabinet lists them. */
export async function followedBy(db: Tx, userId: string): Promise<OrganisationCard[]> {
  const rows = await db
    .select({ id: organisations.id, slug: organisations.slug, name: organisations.name, logoUrl: organisations.logoUrl, verified: organisations.verified })
    .from(organisationFollows)
    .innerJoin(organisations, eq(organisations.id, organisationFollows.organisationId))
    .where(and(eq(organisationFollows.userId, userId), publicOrganisation))
    .orderBy(asc(sql`lower(${organisations.name})`));
  return rows.map(({ id, ...card }) => ({ _id: id, ...card }));
}
