import { createRoute, z } from '@hono/zod-openapi';
import { fail } from '../errors.ts';
import { findAvatar, generatedAvatar } from '../../services/accounts/avatars.ts';
import { errors, router } from '../openapi.ts';

const picture = (type: string) => ({ description: 'Зображення', content: { [type]: { schema: z.string().openapi({ format: 'binary' }) } } });

export const avatarRoutes = router().openapi(
  createRoute({
    method: 'get',
    path: '/{userId}',
    tags: ['Кабінет'],
    summary: 'Аватар користувача: завантажений, інакше згенерований з нікнейма (ETag, кеш)',
    request: { params: z.object({ userId: z.uuid() }), query: z.object({ v: z.string().max(64).optional() }) },
    responses: { 200: picture('image/webp'), 304: { description: 'Не змінився' }, ...errors(400, 404) },
  }),
  async (c) => {
    const { userId } = c.req.valid('param');
    const { v } = c.req.valid('query');
    const user = await findAvatar(c.get('db'), userId);
    if (!user) fail(404, 'error.userNotFound');
    const { image } = user;
    const etag = image ? image.etag : generatedAvatar(user.username).etag;
    // A URL that names the current upload never changes; a bare one is checked again soon.
    const cacheControl = image && v === image.id ? 'public, max-age=31536000, immutable' : 'public, max-age=300, stale-while-revalidate=86400';
    const headers = { ETag: etag, 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff' };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    if (image) return c.body(new Uint8Array(image.data), 200, { ...headers, 'Content-Type': image.mime });
    return c.body(generatedAvatar(user.username).svg, 200, {
      ...headers,
      'Content-Type': 'image/svg+xml; charset=utf-8',
      // An SVG opened on its own must not run anything.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    });
  },
);
