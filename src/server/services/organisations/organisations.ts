/**
 * Organisations (issue 56): a club, school, streamer or federation branch hosting its own events.
 * Anyone with a confirmed address founds one and owns it; its owner and admins change its profile;
 * the platform's admin verifies and suspends it. A suspended organisation leaves every public list
 * and page (members and the platform's admin still see it, marked), and nothing in it may change
 * until it is lifted; nothing is deleted.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Organisation, OrganisationCard, OrganisationListItem, OrganisationMember, SuspendedOrganisation } from '../../../lib/api/organisations.ts';
import { MAX_OWNED_ORGANISATIONS, isIdShaped, isValidSlug, slugFromName, type OrganisationLinks, type OrganisationRole } from '../../../lib/domain/organisation.ts';
import { translate } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { organisationFollows, organisationMembers, organisations, tournaments, users } from '../../db/schema/index.ts';
import type { UserRow } from '../accounts/accounts.ts';
import { avatarUrl } from '../accounts/avatars.ts';
import { isLookAlikeViolation, organisationNameLooksTaken, skeletonColumns } from '../accounts/names.ts';
import { constraintOf, isUniqueViolation } from '../db-errors.ts';
import { changed, EVERYTHING } from '../live/changes.ts';
import { notify } from '../notices/notifications.ts';

export type OrganisationRow = typeof organisations.$inferSelect;
/** Who is asking: a signed-in user's id and site role, or nobody. */
export type Viewer = Pick<UserRow, 'id' | 'role'> | null;

/** The organisation an id or a slug names, suspended or not. */
export async function findOrganisation(db: Tx, idOrSlug: string): Promise<OrganisationRow | undefined> {
  const where = isIdShaped(idOrSlug) ? eq(organisations.id, idOrSlug.toLowerCase()) : eq(organisations.slug, idOrSlug.toLowerCase());
  const [row] = await db.select().from(organisations).where(where);
  return row;
}

/** The organisation's row, locked until the transaction ends: changes to it and its members queue here. */
export async function lockOrganisation(tx: Tx, id: string): Promise<OrganisationRow | undefined> {
  const [row] = await tx.select().from(organisations).where(eq(organisations.id, id)).for('update');
  return row;
}

/** A user's role in an organisation, or null. */
export async function roleIn(db: Tx, organisationId: string, userId: string): Promise<OrganisationRole | null> {
  const [row] = await db
    .select({ role: organisationMembers.role })
    .from(organisationMembers)
    .where(and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.userId, userId)));
  return row?.role ?? null;
}

/** Whether the user is the owner or an admin of an organisation that is not suspended: they may publish tournaments. */
export async function managesAnOrganisation(db: Tx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: organisationMembers.organisationId })
    .from(organisationMembers)
    .innerJoin(organisations, eq(organisations.id, organisationMembers.organisationId))
    .where(and(eq(organisationMembers.userId, userId), inArray(organisationMembers.role, ['owner', 'admin']), publicOrganisation))
    .limit(1);
  return Boolean(row);
}

/** Whether the public may see it: a suspended organisation is gone from every list and page. */
export const isPublic = (row: Pick<OrganisationRow, 'suspendedAt'>): boolean => row.suspendedAt === null;
/** In SQL, for the lists. */
export const publicOrganisation: SQL = isNull(organisations.suspendedAt);

/** Whether `viewer` may see a suspended organisation: its members and the platform's admin. */
async function seesSuspended(db: Tx, row: OrganisationRow, viewer: Viewer): Promise<boolean> {
  if (!viewer) return false;
  return viewer.role === 'admin' || (await roleIn(db, row.id, viewer.id)) !== null;
}

const ROLE_ORDER = sql`case ${organisationMembers.role} when 'owner' then 0 when 'admin' then 1 else 2 end`;

/** Its members, the owner first, then admins, then staff, each by when they joined. */
export async function membersOf(db: Tx, organisationId: string): Promise<OrganisationMember[]> {
  const rows = await db
    .select({ id: users.id, username: users.username, avatarImageId: users.avatarImageId, role: organisationMembers.role })
    .from(organisationMembers)
    .innerJoin(users, eq(users.id, organisationMembers.userId))
    .where(eq(organisationMembers.organisationId, organisationId))
    .orderBy(ROLE_ORDER, asc(organisationMembers.createdAt), asc(users.username));
  return rows.map((r) => ({ _id: r.id, username: r.username, avatar: avatarUrl(r.id, r.avatarImageId), role: r.role }));
}

export async function followerCount(db: Tx, organisationId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(organisationFollows).where(eq(organisationFollows.organisationId, organisationId));
  return row?.n ?? 0;
}

async function isFollowing(db: Tx, organisationId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: organisationFollows.userId })
    .from(organisationFollows)
    .where(and(eq(organisationFollows.organisationId, organisationId), eq(organisationFollows.userId, userId)));
  return Boolean(row);
}

/** The organisation as its page shows it to `viewer`. */
export async function presentOrganisation(db: Tx, row: OrganisationRow, viewer: Viewer): Promise<Organisation> {
  const [members, followers, following] = await Promise.all([
    membersOf(db, row.id),
    followerCount(db, row.id),
    viewer ? isFollowing(db, row.id, viewer.id) : Promise.resolve(false),
  ]);
  const role = viewer ? (members.find((m) => m._id === viewer.id)?.role ?? null) : null;
  return {
    _id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    logoUrl: row.logoUrl,
    verified: row.verified,
    followers,
    links: row.links,
    members,
    createdAt: row.createdAt.toISOString(),
    suspended: row.suspendedAt ? { at: row.suspendedAt.toISOString(), reason: row.suspendedReason ?? '' } : null,
    viewer: viewer ? { role, following } : null,
  };
}

/** `GET /organisations/{idOrSlug}`: null when there is none, or when it is suspended and `viewer` may not see it. */
export async function readOrganisation(db: Tx, idOrSlug: string, viewer: Viewer): Promise<Organisation | null> {
  const row = await findOrganisation(db, idOrSlug);
  if (!row || (!isPublic(row) && !(await seesSuspended(db, row, viewer)))) return null;
  return presentOrganisation(db, row, viewer);
}

/** `%` and `_` typed into a search are looked for as themselves. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** An organisation as lists show it: its card, its description and how many follow it. */
const LIST_COLUMNS = {
  id: organisations.id,
  slug: organisations.slug,
  name: organisations.name,
  logoUrl: organisations.logoUrl,
  verified: organisations.verified,
  description: organisations.description,
  followers: sql<number>`(select count(*)::int from ${organisationFollows} where ${organisationFollows.organisationId} = ${organisations.id})`,
};

/** The directory: public organisations, verified first, then the most followed, then by name. */
export async function listOrganisations(db: Tx, query: { q?: string | undefined; limit: number; offset: number }): Promise<{ items: OrganisationListItem[]; more: boolean }> {
  const search = query.q ? or(ilike(organisations.name, likeText(query.q)), ilike(organisations.slug, likeText(query.q))) : undefined;
  const rows = await db
    .select(LIST_COLUMNS)
    .from(organisations)
    .where(search ? and(publicOrganisation, search) : publicOrganisation)
    .orderBy(desc(organisations.verified), desc(LIST_COLUMNS.followers), asc(sql`lower(${organisations.name})`), asc(organisations.id))
    .limit(query.limit + 1)
    .offset(query.offset);
  const items = rows.slice(0, query.limit).map(({ id, ...rest }) => ({ _id: id, ...rest }));
  return { items, more: rows.length > query.limit };
}

/** The suspended organisations, the latest suspension first: what the platform's admin may lift (issue 56). */
export async function listSuspended(db: Tx, page: { limit: number; offset: number }): Promise<{ items: SuspendedOrganisation[]; more: boolean }> {
  const rows = await db
    .select({
      ...LIST_COLUMNS,
      at: organisations.suspendedAt,
      reason: organisations.suspendedReason,
    })
    .from(organisations)
    .where(isNotNull(organisations.suspendedAt))
    .orderBy(desc(organisations.suspendedAt), asc(organisations.id))
    .limit(page.limit + 1)
    .offset(page.offset);
  const items = rows.slice(0, page.limit).map(({ id, at, reason, ...rest }) => ({ _id: id, ...rest, suspended: { at: at!.toISOString(), reason: reason ?? '' } }));
  return { items, more: rows.length > page.limit };
}

/** What founding or changing an organisation takes. */
export interface OrganisationFields {
  name: string;
  slug?: string | undefined;
  description?: string | undefined;
  logoUrl?: string | null | undefined;
  links?: OrganisationLinks | undefined;
}

export type SaveRefusal = 'nameTaken' | 'nameLookAlike' | 'slugTaken' | 'slugNeeded' | 'tooManyOwned' | 'notFound' | 'suspended';
export type SaveResult = { ok: true; organisation: OrganisationRow } | { ok: false; reason: SaveRefusal };

/** Which of the unique indexes refused a row, as a refusal. */
function clashOf(error: unknown): SaveRefusal | null {
  if (isLookAlikeViolation(error)) return 'nameLookAlike';
  if (!isUniqueViolation(error)) return null;
  return constraintOf(error) === 'organisations_slug_idx' ? 'slugTaken' : 'nameTaken';
}

/** A name or slug already used by another organisation than `exceptId`. */
async function clashes(db: Tx, name: string, slug: string, exceptId?: string): Promise<SaveRefusal | null> {
  const rows = await db
    .select({ id: organisations.id, name: organisations.name, slug: organisations.slug })
    .from(organisations)
    .where(or(eq(sql`lower(${organisations.name})`, name.toLowerCase()), eq(organisations.slug, slug)));
  const others = rows.filter((r) => r.id !== exceptId);
  if (others.some((r) => r.name.toLowerCase() === name.toLowerCase())) return 'nameTaken';
  if (others.length > 0) return 'slugTaken';
  if (await organisationNameLooksTaken(db, name, exceptId)) return 'nameLookAlike';
  return null;
}

/** The slug to use: the one given, or one made from the name, numbered past those taken. */
async function chooseSlug(db: Tx, name: string, given: string | undefined): Promise<string | null> {
  if (given) return given;
  const base = slugFromName(name);
  if (!isValidSlug(base)) return null;
  const candidates = [base, ...Array.from({ length: 19 }, (_, i) => `${base.slice(0, 37)}-${i + 2}`)];
  const taken = new Set((await db.select({ slug: organisations.slug }).from(organisations).where(inArray(organisations.slug, candidates))).map((r) => r.slug));
  return candidates.find((c) => !taken.has(c)) ?? null;
}

/**
 * Founds an organisation owned by `founder`. The founder's row is locked first, so a burst of
 * requests from one account counts its organisations one at a time and the cap holds.
 */
export async function createOrganisation(db: Tx, founder: Pick<UserRow, 'id'>, input: OrganisationFields): Promise<SaveResult> {
  const slug = await chooseSlug(db, input.name, input.slug);
  if (!slug) return { ok: false, reason: 'slugNeeded' };
  try {
    return await db.transaction(async (tx): Promise<SaveResult> => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, founder.id)).for('update');
      const [{ n } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(organisationMembers)
        .where(and(eq(organisationMembers.userId, founder.id), eq(organisationMembers.role, 'owner')));
      if (n >= MAX_OWNED_ORGANISATIONS) return { ok: false, reason: 'tooManyOwned' };
      const clash = await clashes(tx, input.name, slug);
      if (clash) return { ok: false, reason: clash };
      const [row] = await tx
        .insert(organisations)
        .values({
          name: input.name,
          ...skeletonColumns(input.name),
          slug,
          description: input.description ?? '',
          logoUrl: input.logoUrl || null,
          links: input.links ?? {},
        })
        .returning();
      await tx.insert(organisationMembers).values({ organisationId: row!.id, userId: founder.id, role: 'owner', addedBy: founder.id });
      changed('organisations');
      return { ok: true, organisation: row! };
    });
  } catch (error) {
    // Two foundings racing for one name or slug: the unique indexes decide.
    const clash = clashOf(error);
    if (clash) return { ok: false, reason: clash };
    throw error;
  }
}

/** `PUT /organisations/{id}`: its profile replaced (a slug left out stays); under its lock. */
export async function updateOrganisation(db: Tx, id: string, input: OrganisationFields): Promise<SaveResult> {
  try {
    return await db.transaction(async (tx): Promise<SaveResult> => {
      const current = await lockOrganisation(tx, id);
      if (!current) return { ok: false, reason: 'notFound' };
      if (!isPublic(current)) return { ok: false, reason: 'suspended' };
      const slug = input.slug ?? current.slug;
      const clash = await clashes(tx, input.name, slug, id);
      if (clash) return { ok: false, reason: clash };
      const [row] = await tx
        .update(organisations)
        .set({
          name: input.name,
          ...skeletonColumns(input.name),
          slug,
          description: input.description ?? '',
          logoUrl: input.logoUrl || null,
          links: input.links ?? {},
          updatedAt: new Date(),
        })
        .where(eq(organisations.id, id))
        .returning();
      // Its name and logo are on its tournaments' cards and pages too.
      changed(EVERYTHING);
      return { ok: true, organisation: row! };
    });
  } catch (error) {
    const clash = clashOf(error);
    if (clash) return { ok: false, reason: clash };
    throw error;
  }
}

/**
 * The platform's admin marks it verified, or suspends it (with why) or lifts the suspension. The
 * owner is told in the bell, in their language. Its tournaments leave or return to every list.
 */
export async function moderateOrganisation(
  db: Tx,
  id: string,
  change: { verified?: boolean | undefined; suspended?: boolean | undefined; reason?: string | undefined },
): Promise<OrganisationRow | null> {
  return db.transaction(async (tx) => {
    const current = await lockOrganisation(tx, id);
    if (!current) return null;
    const suspending = change.suspended === true && current.suspendedAt === null;
    const lifting = change.suspended === false && current.suspendedAt !== null;
    const [row] = await tx
      .update(organisations)
      .set({
        ...(change.verified === undefined ? {} : { verified: change.verified }),
        ...(change.suspended === true ? { suspendedAt: current.suspendedAt ?? new Date(), suspendedReason: change.reason ?? '' } : {}),
        ...(change.suspended === false ? { suspendedAt: null, suspendedReason: null } : {}),
        updatedAt: new Date(),
      })
      .where(eq(organisations.id, id))
      .returning();
    if (suspending || lifting) {
      const [owner] = await tx
        .select({ id: users.id, locale: users.locale })
        .from(organisationMembers)
        .innerJoin(users, eq(users.id, organisationMembers.userId))
        .where(and(eq(organisationMembers.organisationId, id), eq(organisationMembers.role, 'owner')));
      if (owner) {
        const text = suspending
          ? translate(owner.locale, 'organisation.notice.suspended', { name: row!.name, reason: change.reason ?? '' })
          : translate(owner.locale, 'organisation.notice.restored', { name: row!.name });
        await notify(tx, owner.id, text, { link: `/org/${row!.slug}` });
      }
    }
    // Suspension hides its tournaments everywhere; a badge shows on every card of them.
    changed(EVERYTHING);
    return row!;
  });
}

/** Organisations a user is a member of, with their role: the cabinet and `/users/me`. */
export async function organisationsOf(db: Tx, userId: string): Promise<{ _id: string; slug: string; name: string; role: OrganisationRole }[]> {
  return (await memberships(db, userId)).map(({ _id, slug, name, role }) => ({ _id, slug, name, role }));
}

/** The organisations a user is in, as cards with their role. */
export async function memberships(db: Tx, userId: string): Promise<(OrganisationCard & { role: OrganisationRole })[]> {
  const rows = await db
    .select({
      id: organisations.id,
      slug: organisations.slug,
      name: organisations.name,
      logoUrl: organisations.logoUrl,
      verified: organisations.verified,
      role: organisationMembers.role,
    })
    .from(organisationMembers)
    .innerJoin(organisations, eq(organisations.id, organisationMembers.organisationId))
    .where(eq(organisationMembers.userId, userId))
    .orderBy(ROLE_ORDER, asc(organisations.name));
  return rows.map(({ id, ...rest }) => ({ _id: id, ...rest }));
}

/** The number of tournaments an organisation hosts (deleting it is refused while it has any). */
export async function tournamentCount(db: Tx, organisationId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(tournaments).where(eq(tournaments.organisationId, organisationId));
  return row?.n ?? 0;
}

export type DeleteResult = 'deleted' | 'notFound' | 'hasTournaments' | 'suspended';

/** Its owner deletes it, while it hosts no tournament (players' histories keep their organiser). */
export async function deleteOrganisation(db: Tx, id: string): Promise<DeleteResult> {
  return db.transaction(async (tx) => {
    const current = await lockOrganisation(tx, id);
    if (!current) return 'notFound';
    if (!isPublic(current)) return 'suspended';
    if ((await tournamentCount(tx, id)) > 0) return 'hasTournaments';
    await tx.delete(organisations).where(eq(organisations.id, id));
    // Its seasons go with it (they hold no tournament: it has none).
    changed('organisations', 'seasons', 'sessions');
    return 'deleted';
  });
}
