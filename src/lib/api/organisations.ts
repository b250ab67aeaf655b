import { z } from 'zod';
import { t } from '../i18n/index.ts';
import { hasInvisibleCharacters, normalizeName } from '../domain/names.ts';
import { isHttpAddress } from '../domain/address.ts';
import { hasControlCharacters } from '../domain/team.ts';
import {
  GIVEN_ROLES,
  isLinkOf,
  isIdShaped,
  isValidSlug,
  LINK_KINDS,
  ORGANISATION_DESCRIPTION_MAX,
  ORGANISATION_NAME_MAX,
  ORGANISATION_ROLES,
  SUSPENSION_REASON_MAX,
  type LinkKind,
} from '../domain/organisation.ts';
import type { ApiClient } from './client.ts';
import { pageQuery, pageParams, readPage } from './paging.ts';

/*
 * Organisations (issue 56): who hosts tournaments besides the site itself. Anyone reads them;
 * their owner and admins change them; the platform's admin verifies and suspends them.
 */

export const LOGO_URL_MAX = 500;
/** The longest directory search. */
export const ORGANISATION_QUERY_MAX = 64;
/** The longest member query: a nickname (at most 32) or an id (36). */
const MEMBER_QUERY_MAX = 64;

export const organisationRoleSchema = z.enum(ORGANISATION_ROLES);

/** A member as anyone may see them: no email. */
export const organisationMemberSchema = z.object({
  _id: z.string(),
  username: z.string(),
  avatar: z.string(),
  role: organisationRoleSchema,
});
export type OrganisationMember = z.infer<typeof organisationMemberSchema>;

const linksSchema = z.object(Object.fromEntries(LINK_KINDS.map((kind) => [kind, z.string().optional()])) as Record<LinkKind, z.ZodOptional<z.ZodString>>);

/** An organisation as the directory lists it, and as a tournament names its organiser. */
export const organisationCardSchema = z.object({
  _id: z.string(),
  slug: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  verified: z.boolean(),
});
export type OrganisationCard = z.infer<typeof organisationCardSchema>;

export const organisationListItemSchema = organisationCardSchema.extend({
  description: z.string(),
  followers: z.number().int(),
});
export type OrganisationListItem = z.infer<typeof organisationListItemSchema>;

/** `GET /organisations/suspended` (the platform's admin): a suspended organisation, with why and since when. */
export const suspendedOrganisationSchema = organisationListItemSchema.extend({
  suspended: z.object({ at: z.string(), reason: z.string() }),
});
export type SuspendedOrganisation = z.infer<typeof suspendedOrganisationSchema>;

/** `GET /organisations/{idOrSlug}`: its page's data. */
export const organisationSchema = organisationListItemSchema.extend({
  links: linksSchema,
  members: z.array(organisationMemberSchema),
  createdAt: z.string(),
  /** Set only for its members and the platform's admin: the public sees no suspended organisation at all. */
  suspended: z.object({ at: z.string(), reason: z.string() }).nullable(),
  /** The signed-in reader's place in it; null for a guest. */
  viewer: z.object({ role: organisationRoleSchema.nullable(), following: z.boolean() }).nullable(),
});
export type Organisation = z.infer<typeof organisationSchema>;

export const organisationSaved = z.object({ message: z.string(), organisation: organisationSchema });
export type OrganisationSaved = z.infer<typeof organisationSaved>;

const organisationName = z
  .string()
  .refine((v) => !hasInvisibleCharacters(v), { error: () => t('organisation.invisibleCharacters') })
  .overwrite(normalizeName)
  .refine((v) => v.length > 0, { error: () => t('organisation.enterName') })
  .refine((v) => v.length <= ORGANISATION_NAME_MAX, { error: () => t('organisation.nameTooLong', { max: ORGANISATION_NAME_MAX }) })
  .refine((v) => !hasControlCharacters(v), { error: () => t('organisation.invalidCharacters') })
  .prefault('');

const slug = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => !isIdShaped(v), { error: () => t('organisation.slugLikeId'), abort: true })
  .refine(isValidSlug, { error: () => t('organisation.slugInvalid') });

const description = z
  .string()
  .trim()
  .refine((v) => v.length <= ORGANISATION_DESCRIPTION_MAX, { error: () => t('organisation.descriptionTooLong', { max: ORGANISATION_DESCRIPTION_MAX }) })
  .refine((v) => !hasControlCharacters(v), { error: () => t('organisation.invalidCharacters') });

const logoLink = z
  .string()
  .trim()
  .refine((v) => v.length <= LOGO_URL_MAX, { error: () => t('organisation.logoTooLong', { max: LOGO_URL_MAX }) })
  .refine((v) => v === '' || isHttpAddress(v), { error: () => t('organisation.logoNotHttp') });

/** Each kind of link checked against its own service; an empty one is left out. */
const links = z
  .object(
    Object.fromEntries(
      LINK_KINDS.map((kind) => [
        kind,
        z
          .string()
          .trim()
          .refine((v) => v === '' || isLinkOf(kind, v), { error: () => t(`organisation.link.${kind}`) })
          .optional(),
      ]),
    ) as Record<LinkKind, z.ZodOptional<z.ZodString>>,
  )
  .strict()
  .transform((given) => Object.fromEntries(Object.entries(given).filter(([, v]) => v)) as Partial<Record<LinkKind, string>>);

/** `POST /organisations`; `PUT /organisations/{id}` takes the same (a slug left out stays as it is). */
export const organisationInput = z.object({
  name: organisationName,
  slug: slug.optional(),
  description: description.optional(),
  logoUrl: logoLink.nullish(),
  links: links.optional(),
});
export type OrganisationInput = z.input<typeof organisationInput>;

/** `PATCH /organisations/{id}`, the platform's admin only: verified, suspended (with why), or both. */
export const moderationInput = z
  .object({
    verified: z.boolean().optional(),
    suspended: z.boolean().optional(),
    reason: z
      .string()
      .trim()
      .refine((v) => v.length <= SUSPENSION_REASON_MAX, { error: () => t('organisation.reasonTooLong', { max: SUSPENSION_REASON_MAX }) })
      .refine((v) => !hasControlCharacters(v), { error: () => t('organisation.invalidCharacters') })
      .optional(),
  })
  .refine((v) => v.verified !== undefined || v.suspended !== undefined, { error: () => t('organisation.nothingToChange') })
  .refine((v) => v.suspended !== true || Boolean(v.reason), { error: () => t('organisation.reasonRequired'), path: ['reason'] });
export type ModerationInput = z.infer<typeof moderationInput>;

/** `POST /organisations/{id}/members`: who (a nickname or an id) and as what. */
export const memberInput = z.object({
  user: z
    .string()
    .trim()
    .refine((v) => v.length > 0, { error: () => t('organisation.enterUser') })
    .refine((v) => v.length <= MEMBER_QUERY_MAX, { error: () => t('organisation.userTooLong', { max: MEMBER_QUERY_MAX }) })
    .prefault(''),
  role: z.enum(GIVEN_ROLES, { error: () => t('organisation.roleInvalid') }),
});
export type MemberInput = z.infer<typeof memberInput>;

/** `PATCH /organisations/{id}/members/{userId}`: a new role; `owner` hands ownership over. */
export const memberRoleInput = z.object({ role: z.enum(ORGANISATION_ROLES, { error: () => t('organisation.roleInvalid') }) });
export type MemberRoleInput = z.infer<typeof memberRoleInput>;

export const membersSaved = z.object({ message: z.string(), members: z.array(organisationMemberSchema) });
export type MembersSaved = z.infer<typeof membersSaved>;

export const followSaved = z.object({ message: z.string(), following: z.boolean(), followers: z.number().int() });
export type FollowSaved = z.infer<typeof followSaved>;

/** `GET /organisations`: a name or address to look for, and the page. */
export const organisationListQuery = z
  .object({
    q: z
      .string()
      .trim()
      .refine((v) => v.length <= ORGANISATION_QUERY_MAX, { error: () => t('organisation.queryTooLong', { max: ORGANISATION_QUERY_MAX }) })
      .optional(),
  })
  .extend(pageQuery);

/** `GET /users/me/organisations`: the organisations the reader is in (with their role) and those they follow. */
export const myOrganisationsSchema = z.object({
  member: z.array(organisationCardSchema.extend({ role: organisationRoleSchema })),
  following: z.array(organisationCardSchema),
});
export type MyOrganisations = z.infer<typeof myOrganisationsSchema>;

const path = (id: string) => `organisations/${encodeURIComponent(id)}`;

export const listOrganisations = async (api: ApiClient, query: { q?: string; limit?: number; offset?: number } = {}) =>
  readPage<OrganisationListItem>(await api.get('organisations', { searchParams: { ...(query.q ? { q: query.q } : {}), ...pageParams(query) } }));
export const listSuspended = async (api: ApiClient, query: { limit?: number; offset?: number } = {}) =>
  readPage<SuspendedOrganisation>(await api.get('organisations/suspended', { searchParams: pageParams(query) }));
export const getOrganisation = (api: ApiClient, idOrSlug: string) => api.get(path(idOrSlug)).json<Organisation>();
export const createOrganisation = (api: ApiClient, body: OrganisationInput) => api.post('organisations', { json: body }).json<OrganisationSaved>();
export const updateOrganisation = (api: ApiClient, id: string, body: OrganisationInput) => api.put(path(id), { json: body }).json<OrganisationSaved>();
export const moderateOrganisation = (api: ApiClient, id: string, body: ModerationInput) => api.patch(path(id), { json: body }).json<OrganisationSaved>();
export const addMember = (api: ApiClient, id: string, body: MemberInput) => api.post(`${path(id)}/members`, { json: body }).json<MembersSaved>();
export const changeMember = (api: ApiClient, id: string, userId: string, body: MemberRoleInput) =>
  api.patch(`${path(id)}/members/${encodeURIComponent(userId)}`, { json: body }).json<MembersSaved>();
export const removeMember = (api: ApiClient, id: string, userId: string) => api.delete(`${path(id)}/members/${encodeURIComponent(userId)}`).json<MembersSaved>();
export const getMyOrganisations = (api: ApiClient) => api.get('users/me/organisations').json<MyOrganisations>();
export const follow = (api: ApiClient, id: string) => api.post(`${path(id)}/follow`).json<FollowSaved>();
export const unfollow = (api: ApiClient, id: string) => api.delete(`${path(id)}/follow`).json<FollowSaved>();
