import { z } from '@hono/zod-openapi';
import { playerProfileSchema, teamProfileSchema } from '../../../lib/api/profiles.ts';
import { fail } from '../errors.ts';
import { errors, jsonResponse, publicRead, router } from '../openapi.ts';
import type { DataTag } from '../../services/live/changes.ts';

/** A profile shows what results move (ratings, histories, places) and the tournaments it took part in. */
const profileData = (): DataTag[] => ['ratings', 'tournaments'];
import { playerProfile, teamProfile } from '../../services/accounts/profiles.ts';

/*
 * Public profiles (issue 23): the whole page of a player or a team in one answer, the same for
 * every reader, so guests' answers are held and shared (caching.ts PUBLIC_READS).
 */

const tags = ['Профілі'];
const params = z.object({ id: z.uuid() });
const contents = 'рейтинг і його історія в кожній грі, досягнення, місця в турнірах, перша сторінка матчів';

export const playerProfileRoutes = router().openapi(
  publicRead({
    method: 'get',
    path: '/{id}',
    tags,
    summary: `Публічний профіль гравця: нікнейм, аватар, команди, ${contents}`,
    request: { params },
    responses: { 200: jsonResponse(playerProfileSchema, 'Профіль гравця'), ...errors(400, 404) },
  }, { shows: profileData }),
  async (c) => {
    const profile = await playerProfile(c.get('db'), c.req.valid('param').id);
    if (!profile) fail(404, 'profile.playerNotFound');
    return c.json(profile, 200);
  },
);

export const teamProfileRoutes = router().openapi(
  publicRead({
    method: 'get',
    path: '/{id}',
    tags,
    summary: `Публічний профіль команди: назва, логотип, капітан, склад (без адрес), ${contents}`,
    request: { params },
    responses: { 200: jsonResponse(teamProfileSchema, 'Профіль команди'), ...errors(400, 404) },
  }, { shows: profileData }),
  async (c) => {
    const profile = await teamProfile(c.get('db'), c.req.valid('param').id);
    if (!profile) fail(404, 'profile.teamNotFound');
    return c.json(profile, 200);
  },
);
