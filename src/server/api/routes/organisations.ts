import { z } from '@hono/zod-openapi';
import {
  followSaved,
  memberInput,
  memberRoleInput,
  membersSaved,
  moderationInput,
  myOrganisationsSchema,
  organisationInput,
  organisationListItemSchema,
  organisationListQuery,
  organisationSaved,
  organisationSchema,
  suspendedOrganisationSchema,
} from '../../../lib/api/organisations.ts';
import { PAGE_MAX_LIMIT, pageQuery } from '../../../lib/api/paging.ts';
import { MAX_MEMBERS, MAX_OWNED_ORGANISATIONS } from '../../../lib/domain/organisation.ts';
import { t } from '../../../lib/i18n/index.ts';
import { getAuth } from '../context.ts';
import { managersOnly, membersOnly, ownerOnly } from '../organisation-guards.ts';
import { fail, failTooMany } from '../errors.ts';
import { adminRoute, errors, jsonBody, jsonResponse, messageBody, publicRead, router, userRoute } from '../openapi.ts';
import { linkToNext } from '../paging.ts';
import type { Limit } from '../../services/rate-limit.ts';
import { followedBy, setFollowing } from '../../services/organisations/follows.ts';
import { addMember, changeMember, removeMember, type MemberRefusal, type MembersChange } from '../../services/organisations/members.ts';
import {
  createOrganisation,
  deleteOrganisation,
  listOrganisations,
  listSuspended,
  memberships,
  moderateOrganisation,
  presentOrganisation,
  readOrganisation,
  updateOrganisation,
  type SaveRefusal,
} from '../../services/organisations/organisations.ts';

const tags = ['Організації'];

/** New organisations one account may found in an hour, beside the cap on how many it owns. */
const FOUNDED_LIMIT: Limit = { max: 5, windowSeconds: 60 * 60 };

const idParam = z.object({ id: z.uuid() });
const memberParam = z.object({ id: z.uuid(), userId: z.uuid() });
/** An id or a slug: the page's address uses the slug, tools may use either. */
const idOrSlugParam = z.object({ idOrSlug: z.string().min(1).max(64) });
const showsOrganisations = () => ['organisations' as const];

const SAVE_REFUSALS: Record<SaveRefusal, [400 | 403 | 404 | 409, Parameters<typeof fail>[1]]> = {
  nameTaken: [409, 'organisation.nameTaken'],
  nameLookAlike: [409, 'organisation.nameLookAlike'],
  slugTaken: [409, 'organisation.slugTaken'],
  slugNeeded: [400, 'organisation.slugNeeded'],
  tooManyOwned: [409, 'organisation.tooManyOwned'],
  notFound: [404, 'organisation.notFound'],
  suspended: [403, 'organisation.suspended'],
};

const MEMBER_REFUSALS: Record<MemberRefusal, [403 | 404 | 409, Parameters<typeof fail>[1]]> = {
  notFound: [404, 'organisation.notFound'],
  suspended: [403, 'organisation.suspended'],
  forbidden: [403, 'organisation.roleForbidden'],
  userNotFound: [404, 'organisation.userNotFound'],
  already: [409, 'organisation.alreadyMember'],
  notMember: [404, 'organisation.notMember'],
  ownerStays: [409, 'organisation.ownerStays'],
  full: [409, 'organisation.full'],
};

function refuse<R extends string>(table: Record<R, [number, Parameters<typeof fail>[1]]>, reason: R): never {
  const [status, key] = table[reason];
  fail(status as 400, key, { max: reason === 'full' ? MAX_MEMBERS : MAX_OWNED_ORGANISATIONS });
}

const membersAnswer = (change: Extract<MembersChange, { ok: true }>, message: string) => ({ message, members: change.members });

export const organisationsRoutes = router()
  .openapi(
    publicRead(
      {
        method: 'get',
        path: '/',
        tags,
        summary:
          'Каталог організацій (публічно), сторінкою: спершу перевірені, далі за кількістю підписників. `q` шукає в назві та адресі; ' +
          '`limit` (1–100) і `offset` обирають сторінку; якщо далі є ще, відповідь має заголовок `Link: <…>; rel="next"`',
        request: { query: organisationListQuery },
        responses: { 200: jsonResponse(z.array(organisationListItemSchema), 'Сторінка організацій'), ...errors(400) },
      },
      { shows: showsOrganisations },
    ),
    async (c) => {
      const { q, limit = PAGE_MAX_LIMIT, offset = 0 } = c.req.valid('query');
      const page = await listOrganisations(c.get('db'), { q: q || undefined, limit, offset });
      linkToNext(c, { offset, limit, more: page.more });
      return c.json(page.items, 200);
    },
  )
  // Before `/{idOrSlug}`: `suspended` is a reserved slug.
  .openapi(
    adminRoute({
      method: 'get',
      path: '/suspended',
      tags,
      summary:
        'Адміністратор сайту: призупинені організації з причиною й часом, спершу останні; `limit` (1–100) і `offset` обирають сторінку, ' +
        'далі — заголовок `Link: <…>; rel="next"`',
      request: { query: z.object(pageQuery) },
      responses: { 200: jsonResponse(z.array(suspendedOrganisationSchema), 'Сторінка призупинених'), ...errors(400, 401, 403) },
    }),
    async (c) => {
      const { limit = PAGE_MAX_LIMIT, offset = 0 } = c.req.valid('query');
      const page = await listSuspended(c.get('db'), { limit, offset });
      linkToNext(c, { offset, limit, more: page.more });
      return c.json(page.items, 200);
    },
  )
  .openapi(
    publicRead(
      {
        method: 'get',
        path: '/{idOrSlug}',
        tags,
        summary: 'Організація за id або адресою: профіль, посилання, учасники, підписники (призупинену бачать лише її люди й адміністратор сайту)',
        request: { params: idOrSlugParam },
        responses: { 200: jsonResponse(organisationSchema, 'Організація'), ...errors(400, 404) },
      },
      { shows: showsOrganisations, mine: true },
    ),
    async (c) => {
      const auth = getAuth(c);
      const found = await readOrganisation(c.get('db'), c.req.valid('param').idOrSlug, auth ? auth.user : null);
      if (!found) fail(404, 'organisation.notFound');
      return c.json(found, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/',
      tags,
      summary: `Створити організацію (потрібна підтверджена пошта): автор стає власником; щонайбільше ${MAX_OWNED_ORGANISATIONS} на акаунт`,
      request: { body: jsonBody(organisationInput) },
      responses: { 201: jsonResponse(organisationSaved, 'Організацію створено'), ...errors(400, 401, 403, 409, 415, 429) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      if (!user.emailConfirmedAt) fail(403, 'organisation.confirmFirst');
      const input = c.req.valid('json');
      const founded = await c.get('deps').limits.hit(`organisations:by:${user.id}`, FOUNDED_LIMIT);
      if (!founded.allowed) failTooMany('organisation.tooManyFounded', founded.retryAfter);
      const result = await createOrganisation(c.get('db'), user, input);
      if (!result.ok) refuse(SAVE_REFUSALS, result.reason);
      const organisation = await presentOrganisation(c.var.db, result.organisation, user);
      return c.json({ message: t('organisation.created', { name: organisation.name }), organisation }, 201);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'put',
        path: '/{id}',
        tags,
        summary: 'Власник або адміністратори: змінити профіль (назву, адресу, опис, логотип, посилання)',
        request: { params: idParam, body: jsonBody(organisationInput) },
        responses: { 200: jsonResponse(organisationSaved, 'Організацію оновлено'), ...errors(400, 401, 403, 404, 409, 415) },
      },
      managersOnly,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const result = await updateOrganisation(c.get('db'), id, c.req.valid('json'));
      if (!result.ok) refuse(SAVE_REFUSALS, result.reason);
      return c.json({ message: t('organisation.updated'), organisation: await presentOrganisation(c.var.db, result.organisation, c.var.auth.user) }, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'patch',
      path: '/{id}',
      tags,
      summary: 'Адміністратор сайту: позначити перевіреною (`verified`) або призупинити (`suspended`, `reason`) чи відновити',
      request: { params: idParam, body: jsonBody(moderationInput) },
      responses: { 200: jsonResponse(organisationSaved, 'Організацію оновлено'), ...errors(400, 401, 403, 404, 415) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const row = await moderateOrganisation(c.get('db'), id, c.req.valid('json'));
      if (!row) fail(404, 'organisation.notFound');
      return c.json({ message: t('organisation.moderated'), organisation: await presentOrganisation(c.var.db, row, c.var.auth.user) }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'delete',
        path: '/{id}',
        tags,
        summary: 'Власник: видалити організацію, поки в неї немає турнірів',
        request: { params: idParam },
        responses: { 200: jsonResponse(messageBody, 'Організацію видалено'), ...errors(400, 401, 403, 404, 409) },
      },
      ownerOnly,
    ),
    async (c) => {
      const outcome = await deleteOrganisation(c.get('db'), c.req.valid('param').id);
      if (outcome === 'notFound') fail(404, 'organisation.notFound');
      if (outcome === 'suspended') fail(403, 'organisation.suspended');
      if (outcome === 'hasTournaments') fail(409, 'organisation.hasTournaments');
      return c.json({ message: t('organisation.deleted') }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'post',
        path: '/{id}/members',
        tags,
        summary: 'Власник або адміністратори: додати людину (нікнейм або id) як admin чи staff; її сповіщають',
        request: { params: idParam, body: jsonBody(memberInput) },
        responses: { 201: jsonResponse(membersSaved, 'Додано'), ...errors(400, 401, 403, 404, 409, 415) },
      },
      managersOnly,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const { user, role } = c.req.valid('json');
      const change = await addMember(c.get('db'), id, c.var.auth.user, user, role);
      if (!change.ok) refuse(MEMBER_REFUSALS, change.reason);
      return c.json(membersAnswer(change, t('organisation.memberAdded', { username: change.user.username, role: t(`organisation.role.${role}`) })), 201);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'patch',
        path: '/{id}/members/{userId}',
        tags,
        summary: 'Змінити роль учасника (власник або адміністратори); `owner` — передати власність (лише власник, він стає адміністратором)',
        request: { params: memberParam, body: jsonBody(memberRoleInput) },
        responses: { 200: jsonResponse(membersSaved, 'Роль змінено'), ...errors(400, 401, 403, 404, 409, 415) },
      },
      membersOnly,
    ),
    async (c) => {
      const { id, userId } = c.req.valid('param');
      const { role } = c.req.valid('json');
      const change = await changeMember(c.get('db'), id, c.var.auth.user, userId, role);
      if (!change.ok) refuse(MEMBER_REFUSALS, change.reason);
      const message =
        role === 'owner'
          ? t('organisation.ownershipHanded', { username: change.user.username })
          : t('organisation.memberChanged', { username: change.user.username, role: t(`organisation.role.${role}`) });
      return c.json(membersAnswer(change, message), 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'delete',
        path: '/{id}/members/{userId}',
        tags,
        summary: 'Вилучити учасника (власник або адміністратори) або вийти самому (свій id); власник спершу передає власність',
        request: { params: memberParam },
        responses: { 200: jsonResponse(membersSaved, 'Вилучено'), ...errors(400, 401, 403, 404, 409) },
      },
      membersOnly,
    ),
    async (c) => {
      const { id, userId } = c.req.valid('param');
      const { user } = c.var.auth;
      const change = await removeMember(c.get('db'), id, user, userId);
      if (!change.ok) refuse(MEMBER_REFUSALS, change.reason);
      const message = userId === user.id ? t('organisation.left') : t('organisation.memberRemoved', { username: change.user.username });
      return c.json(membersAnswer(change, message), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/{id}/follow',
      tags,
      summary: 'Стежити за організацією: сповіщення про її нові турніри',
      request: { params: idParam },
      responses: { 200: jsonResponse(followSaved, 'Стежите'), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const result = await setFollowing(c.get('db'), c.req.valid('param').id, c.var.auth.user.id, true);
      if (!result.ok) fail(404, 'organisation.notFound');
      return c.json({ message: t('organisation.followed', { name: result.name }), following: true, followers: result.followers }, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'delete',
      path: '/{id}/follow',
      tags,
      summary: 'Більше не стежити за організацією',
      request: { params: idParam },
      responses: { 200: jsonResponse(followSaved, 'Не стежите'), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const result = await setFollowing(c.get('db'), c.req.valid('param').id, c.var.auth.user.id, false);
      if (!result.ok) fail(404, 'organisation.notFound');
      return c.json({ message: t('organisation.unfollowed', { name: result.name }), following: false, followers: result.followers }, 200);
    },
  );

/** The reader's own organisations, mounted under `/users/me` (the cabinet lists them). */
export const myOrganisationsRoutes = router().openapi(
  userRoute({
    method: 'get',
    path: '/organisations',
    tags,
    summary: 'Мої організації: де я в команді (з роллю) і за якими стежу',
    responses: { 200: jsonResponse(myOrganisationsSchema, 'Мої організації'), ...errors(401) },
  }),
  async (c) => {
    const { user } = c.var.auth;
    const db = c.get('db');
    const [member, following] = await Promise.all([memberships(db, user.id), followedBy(db, user.id)]);
    c.header('Cache-Control', 'private, no-store');
    return c.json({ member, following }, 200);
  },
);
