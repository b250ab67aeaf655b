import { z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { cabinetSchema, cabinetUpdateResponse, passwordChangeInput, profileInput } from '../../../lib/api/cabinet.ts';
import { t } from '../../../lib/i18n/index.ts';
import type { AppEnv } from '../context.ts';
import { fail, failTooMany } from '../errors.ts';
import { changePassword, presentCabinet, updateProfile } from '../../services/accounts/cabinet.ts';
import { PIXEL_LIMITS_TEXT, uploadsInFlight } from '../../services/content/images.ts';
import { errors, jsonBody, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';

/** A picture upload waits for its turn before its body is read (services/content/images.ts). */
const uploadTurn = createMiddleware<AppEnv>(async (c, next) => {
  if ((c.req.header('content-type') ?? '').startsWith('multipart/form-data')) await uploadsInFlight.run(next);
  else await next();
});

/** How the profile save's refusals are answered. */
const PROFILE_REFUSALS = {
  nothingToChange: [400, 'cabinet.nothingToChange'],
  taken: [409, 'auth.usernameTaken'],
  lookAlike: [409, 'auth.usernameLookAlike'],
} as const;

/** How a refused upload is answered. */
const UPLOAD_REFUSALS = {
  empty: [400, 'upload.empty'],
  tooLarge: [413, 'upload.tooLarge'],
  notImage: [415, 'upload.notImage'],
  tooManyPixels: [400, 'upload.tooManyPixels'],
} as const;

const avatarForm = profileInput.extend({
  avatar: z.instanceof(File).optional().openapi({ type: 'string', format: 'binary' }),
});

export const cabinetRoutes = router()
  .openapi(
    userRoute({
      method: 'get',
      path: '/me',
      tags: ['Кабінет'],
      summary: 'Кабінет поточного користувача',
      responses: { 200: jsonResponse(cabinetSchema, 'Кабінет'), ...errors(401) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      c.header('Cache-Control', 'no-store');
      return c.json(await presentCabinet(c.get('db'), user), 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'put',
        path: '/me',
        tags: ['Кабінет'],
        summary: 'Змінити аватар (multipart, поле avatar) або нікнейм і email; новий email діє після підтвердження',
        request: {
          body: {
            content: {
              'multipart/form-data': { schema: avatarForm },
              'application/json': { schema: profileInput },
            },
          },
        },
        responses: { 200: jsonResponse(cabinetUpdateResponse, 'Збережено'), ...errors(400, 401, 409, 413, 415, 429) },
      },
      uploadTurn,
    ),
    async (c) => {
      const { user } = c.var.auth;
      const isForm = (c.req.header('content-type') ?? '').startsWith('multipart/form-data');
      const input: z.infer<typeof avatarForm> = isForm ? c.req.valid('form') : c.req.valid('json');
      const { limits, mailer, siteUrl } = c.get('deps');
      const outcome = await updateProfile({ db: c.get('db'), limits, mailer, siteUrl }, user, input);
      if (!outcome.ok) {
        if (outcome.reason === 'tooManyLetters') failTooMany('auth.tooManyAttempts', outcome.retryAfter);
        if (outcome.reason === 'tooManyUploads') failTooMany('upload.tooMany', outcome.retryAfter);
        if (outcome.reason === 'upload') {
          const [status, key] = UPLOAD_REFUSALS[outcome.upload];
          fail(status, key, key === 'upload.tooManyPixels' ? PIXEL_LIMITS_TEXT : undefined);
        }
        const [status, key] = PROFILE_REFUSALS[outcome.reason];
        fail(status, key);
      }
      const { changed, updated } = outcome;
      const message = changed.email
        ? t('cabinet.emailPending', { email: input.email! })
        : changed.picture && !changed.username
          ? t('cabinet.avatarSaved')
          : t('cabinet.profileUpdated');
      return c.json({ message, user: await presentCabinet(c.get('db'), updated) }, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'put',
      path: '/me/password',
      tags: ['Кабінет'],
      summary: 'Змінити пароль; інші сесії завершуються, поточна лишається',
      request: { body: jsonBody(passwordChangeInput) },
      responses: { 200: jsonResponse(messageBody, 'Пароль змінено'), ...errors(400, 401, 415, 429) },
    }),
    async (c) => {
      const outcome = await changePassword({ db: c.get('db'), limits: c.get('deps').limits }, c.var.auth, c.req.valid('json'));
      if (!outcome.ok && outcome.reason === 'tooMany') failTooMany('auth.tooManyAttempts', outcome.retryAfter);
      if (!outcome.ok) fail(400, 'cabinet.wrongOldPassword');
      return c.json({ message: t('cabinet.passwordChanged') }, 200);
    },
  );
