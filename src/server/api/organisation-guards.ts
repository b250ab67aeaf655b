import { z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { organisationPowers } from '../../lib/domain/organisation.ts';
import { findOrganisation, isPublic, roleIn, type OrganisationRow } from '../services/organisations/organisations.ts';
import type { AppEnv, GuardedEnv } from './context.ts';
import { fail } from './errors.ts';

/* Who may act on an organisation the path names (issue 56): its routes' guards. */

const uuid = z.uuid();

/**
 * A route guard: the path's organisation, when the caller may `power` it, becomes
 * `c.var.organisation`. Checked before the body is read, as `organiserOnly` does for tournaments:
 * 404 when there is none (or it is suspended and the caller is not in it), 403 for a stranger or
 * too low a role, and 403 when it is suspended (unless the service decides, as for leaving). A path
 * naming no organisation is 403 too (none can be theirs), except for the platform's admin, whom
 * validation then answers.
 */
const requireMember = (power: 'organise' | 'manage' | 'own', serviceDecidesSuspended = false) =>
  createMiddleware<AppEnv & GuardedEnv & { Variables: { organisation: OrganisationRow } }>(async (c, next) => {
    const refusal = power === 'own' ? 'organisation.ownerOnly' : power === 'manage' ? 'organisation.managersOnly' : 'organisation.membersOnly';
    const id = c.req.param('id');
    const { user } = c.var.auth;
    if (id === undefined || !uuid.safeParse(id).success) {
      if (user.role === 'admin') return next();
      fail(403, refusal);
    }
    const db = c.get('db');
    const organisation = await findOrganisation(db, id);
    if (!organisation) fail(404, 'organisation.notFound');
    const role = await roleIn(db, id, user.id);
    if (!isPublic(organisation) && role === null) fail(404, 'organisation.notFound');
    if (!organisationPowers(role)[power]) fail(403, refusal);
    if (!isPublic(organisation) && !serviceDecidesSuspended) fail(403, 'organisation.suspended');
    c.set('organisation', organisation);
    await next();
  });

/** Its owner and admins: they run its profile, people and integrations. */
export const managersOnly = requireMember('manage');
export const ownerOnly = requireMember('own');
/** Its people only; the service says what each may do to whom (and that anyone may leave, suspended or not). */
export const membersOnly = requireMember('organise', true);
