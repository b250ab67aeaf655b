import { z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { cabinetSchema, cabinetUpdateResponse, passwordChangeInput, profileInput } from '../../../lib/api/cabinet.ts';
import { t } from '../../../lib/i18n/index.ts';
import type { AppEnv } from '../context.ts';
import { fail, failTooMany } from '../errors.ts';
import { confirmLink, emailChangeLetter, emailInUseLetter, loginLink } from '../../mail/letters.ts';
import { checkPassword, findByEmail, hashPassword } from '../../services/accounts.ts';
import { changePassword, presentCabinet, saveProfile, usernameConflict } from '../../services/cabinet.ts';
import { processUpload, uploadsInFlight, type ProcessedImage } from '../../services/images.ts';
import { type Limit, reserve } from '../../services/rate-limit.ts';
import { errors, jsonBody, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';
import { countLetter } from '../../services/letter-limits.ts';
import { LOGIN_LIMITS } from '../../services/login-attempts.ts';

export const UPLOAD_LIMIT: Limit = { max: 30, windowSeconds: 60 * 60 };

/** A picture upload waits for its turn before its body is read (services/images.ts). */
const uploadTurn = createMiddleware<AppEnv>(async (c, next) => {
  if ((c.req.header('content-type') ?? '').startsWith('multipart/form-data')) await uploadsInFlight.run(next);
  else await next();
});

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
      const db = c.get('db');
      const isForm = (c.req.header('content-type') ?? '').startsWith('multipart/form-data');
      const input: z.infer<typeof avatarForm> = isForm ? c.req.valid('form') : c.req.valid('json');
      const username = input.username && input.username !== user.username ? input.username : undefined;
      const email = input.email && input.email.toLowerCase() !== user.email.toLowerCase() ? input.email : undefined;
      if (!input.avatar && !username && !email) fail(400, 'cabinet.nothingToChange');

      const conflict = username ? await usernameConflict(db, user.id, username) : null;
      if (conflict === 'taken') fail(409, 'auth.usernameTaken');
      if (conflict === 'lookAlike') fail(409, 'auth.usernameLookAlike');
      // A new address is answered alike whether or not another account has it (no probing whose
      // address is whose); its letter, counted like any letter anyone can make the site send, says
      // which it was. Counted before anything changes, so a refusal changes nothing.
      const addressOwner = email ? await findByEmail(db, email) : undefined;
      if (email) {
        const wait = await countLetter(c.get('deps').limits, `user:${user.id}`, email);
        if (wait !== null) failTooMany('auth.tooManyAttempts', wait);
      }

      let picture: ProcessedImage | undefined;
      if (input.avatar) {
        const limit = await c.get('deps').limits.hit(`upload:user:${user.id}`, UPLOAD_LIMIT);
        if (!limit.allowed) failTooMany('upload.tooMany', limit.retryAfter);
        picture = await processUpload(input.avatar);
      }

      const saved = await saveProfile(db, user.id, { username, email, addressOwned: Boolean(addressOwner), picture });
      if (!saved.ok) fail(409, saved.reason === 'lookAlike' ? 'auth.usernameLookAlike' : 'auth.usernameTaken');
      const { updated, emailToken } = saved;

      if (email && emailToken) {
        await c.get('deps').mailer.send(emailChangeLetter(email, updated.username, confirmLink(c.get('deps').siteUrl, emailToken)));
      } else if (email) {
        await c.get('deps').mailer.send(emailInUseLetter(email, loginLink(c.get('deps').siteUrl)));
      }
      const message = email
        ? t('cabinet.emailPending', { email })
        : picture && !username
          ? t('cabinet.avatarSaved')
          : t('cabinet.profileUpdated');
      return c.json({ message, user: await presentCabinet(db, updated) }, 200);
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
      const { user, sessionId } = c.var.auth;
      const { oldPassword, newPassword } = c.req.valid('json');
      const db = c.get('db');
      // Guessing the old password through a stolen session is limited like one account from one
      // address is: counted before the check, and given back when the password was right.
      const attempt = await reserve(c.get('deps').limits, `password:user:${user.id}`, LOGIN_LIMITS.pair);
      if (!attempt.allowed) {
        await attempt.release();
        failTooMany('auth.tooManyAttempts', attempt.retryAfter);
      }
      if (!(await checkPassword(user, oldPassword))) fail(400, 'cabinet.wrongOldPassword');
      await attempt.release();
      await changePassword(db, user.id, await hashPassword(newPassword), sessionId);
      return c.json({ message: t('cabinet.passwordChanged') }, 200);
    },
  );
