/**
 * An organisation's people (issue 56): one owner, admins and staff. A member is added at once (no
 * invite to accept: the organisation vouches for them, and they may leave whenever they like) and
 * told in the bell. Every change runs under the organisation's lock, so two owners handing over at
 * once, or two admins removing each other, happen one after the other.
 */
import { and, count, eq } from 'drizzle-orm';
import type { OrganisationMember } from '../../../lib/api/organisations.ts';
import { MAX_MEMBERS, mayChangeMember, type OrganisationRole } from '../../../lib/domain/organisation.ts';
import { translate } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { organisationMembers, users } from '../../db/schema/index.ts';
import { findByIdOrName, type UserRow } from '../accounts/accounts.ts';
import { changed } from '../live/changes.ts';
import { notify } from '../notices/notifications.ts';
import { revokeKeysOfMaker } from './api-keys.ts';
import { isPublic, lockOrganisation, membersOf, roleIn } from './organisations.ts';

export type MemberRefusal = 'notFound' | 'suspended' | 'forbidden' | 'userNotFound' | 'already' | 'notMember' | 'ownerStays' | 'full';
export type MembersChange =
  | { ok: true; members: OrganisationMember[]; user: { id: string; username: string }; role: OrganisationRole | null }
  | { ok: false; reason: MemberRefusal };

type Actor = Pick<UserRow, 'id'>;

const roleWord = (locale: UserRow['locale'], role: OrganisationRole) => translate(locale, `organisation.role.${role}`);

/** Adds `query` (a nickname or id) as `role`; the caller must be its owner or an admin. */
export async function addMember(db: Tx, organisationId: string, actor: Actor, query: string, role: 'admin' | 'staff'): Promise<MembersChange> {
  return db.transaction(async (tx): Promise<MembersChange> => {
    const organisation = await lockOrganisation(tx, organisationId);
    if (!organisation) return { ok: false, reason: 'notFound' };
    if (!isPublic(organisation)) return { ok: false, reason: 'suspended' };
    if (!mayChangeMember(await roleIn(tx, organisationId, actor.id), role, role)) return { ok: false, reason: 'forbidden' };
    const user = await findByIdOrName(tx, query);
    if (!user) return { ok: false, reason: 'userNotFound' };
    if ((await roleIn(tx, organisationId, user.id)) !== null) return { ok: false, reason: 'already' };
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(organisationMembers).where(eq(organisationMembers.organisationId, organisationId));
    if (n >= MAX_MEMBERS) return { ok: false, reason: 'full' };
    await tx.insert(organisationMembers).values({ organisationId, userId: user.id, role, addedBy: actor.id });
    await notify(tx, user.id, translate(user.locale, 'organisation.notice.added', { name: organisation.name, role: roleWord(user.locale, role) }), {
      link: `/org/${organisation.slug}`,
    });
    changed('organisations', 'sessions');
    return { ok: true, members: await membersOf(tx, organisationId), user: { id: user.id, username: user.username }, role };
  });
}

/**
 * Gives a member another role. `owner` hands ownership over: the owner alone may, and becomes an
 * admin. Admins change admins and staff, never the owner.
 */
export async function changeMember(db: Tx, organisationId: string, actor: Actor, userId: string, role: OrganisationRole): Promise<MembersChange> {
  return db.transaction(async (tx): Promise<MembersChange> => {
    const organisation = await lockOrganisation(tx, organisationId);
    if (!organisation) return { ok: false, reason: 'notFound' };
    if (!isPublic(organisation)) return { ok: false, reason: 'suspended' };
    const actorRole = await roleIn(tx, organisationId, actor.id);
    const current = await roleIn(tx, organisationId, userId);
    // Staff change nobody: refused as such, whoever they name (the owner included).
    if (actorRole !== 'owner' && actorRole !== 'admin') return { ok: false, reason: 'forbidden' };
    if (current === null) return { ok: false, reason: 'notMember' };
    if (!mayChangeMember(actorRole, current, role)) return { ok: false, reason: current === 'owner' ? 'ownerStays' : 'forbidden' };
    if (role === 'owner') {
      // The old owner steps down first: the index allows one owner at a time.
      await tx
        .update(organisationMembers)
        .set({ role: 'admin' })
        .where(and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.userId, actor.id)));
    }
    await tx
      .update(organisationMembers)
      .set({ role })
      .where(and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.userId, userId)));
    if (role === 'staff') await revokeKeysOfMaker(tx, organisationId, userId);
    const [user] = await tx.select({ id: users.id, username: users.username, locale: users.locale }).from(users).where(eq(users.id, userId));
    if (user && current !== role) {
      await notify(tx, user.id, translate(user.locale, 'organisation.notice.role', { name: organisation.name, role: roleWord(user.locale, role) }), {
        link: `/org/${organisation.slug}`,
      });
    }
    changed('organisations', 'sessions');
    return { ok: true, members: await membersOf(tx, organisationId), user: { id: userId, username: user?.username ?? '' }, role };
  });
}

/** Removes a member (owner and admins; the owner is never removed), or the caller leaves. */
export async function removeMember(db: Tx, organisationId: string, actor: Actor, userId: string): Promise<MembersChange> {
  return db.transaction(async (tx): Promise<MembersChange> => {
    const organisation = await lockOrganisation(tx, organisationId);
    if (!organisation) return { ok: false, reason: 'notFound' };
    const current = await roleIn(tx, organisationId, userId);
    const leaving = actor.id === userId;
    // Leaving is always allowed, suspended or not; removing someone else is a change to the organisation.
    if (!leaving) {
      if (!isPublic(organisation)) return { ok: false, reason: 'suspended' };
      const actorRole = await roleIn(tx, organisationId, actor.id);
      if (actorRole !== 'owner' && actorRole !== 'admin') return { ok: false, reason: 'forbidden' };
      if (current === null) return { ok: false, reason: 'notMember' };
      if (!mayChangeMember(actorRole, current, null)) return { ok: false, reason: 'ownerStays' };
    } else {
      if (current === null) return { ok: false, reason: 'notMember' };
      if (current === 'owner') return { ok: false, reason: 'ownerStays' };
    }
    await tx.delete(organisationMembers).where(and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.userId, userId)));
    await revokeKeysOfMaker(tx, organisationId, userId);
    const [user] = await tx.select({ id: users.id, username: users.username, locale: users.locale }).from(users).where(eq(users.id, userId));
    if (user && !leaving) {
      await notify(tx, user.id, translate(user.locale, 'organisation.notice.removed', { name: organisation.name }), { link: `/org/${organisation.slug}` });
    }
    changed('organisations', 'sessions');
    return { ok: true, members: await membersOf(tx, organisationId), user: { id: userId, username: user?.username ?? '' }, role: null };
  });
}
