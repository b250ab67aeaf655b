import { createRoute, z } from '@hono/zod-openapi';
import { and, eq, ne, sql } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { cabinetSchema, cabinetUpdateResponse, passwordChangeInput, profileInput } from '../../../lib/api/cabinet.ts';
import { t } from '../../../lib/i18n/index.ts';
import { type AppContext, type AppEnv, requireUser, signedIn } from '../context.ts';
import { users } from '../../db/schema/index.ts';
import { fail, failTooMany } from '../errors.ts';
import { confirmLink, emailChangeLetter, emailInUseLetter, loginLink } from '../../mail/letters.ts';
import { checkPassword, findByEmail, hashPassword, issueEmailToken } from '../../services/accounts.ts';
import { presentCabinet } from '../../services/cabinet.ts';
import { isUniqueViolation } from '../../services/db-errors.ts';
import { isLookAlikeViolation, skeletonColumns, usernameLooksTaken } from '../../services/names.ts';
import { deleteImage, processUpload, storeImage, uploadsInFlight } from '../../services/images.ts';
import { type Limit, reserve } from '../../services/rate-limit.ts';
import { revokeUserSessions } from '../../services/sessions.ts';
import { bearer, errors, jsonBody, jsonResponse, messageBody, router } from '../openapi.ts';
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

/** Whether another account already has this username (any case). */
async function usernameTaken(c: AppContext, userId: string, username: string): Promise<boolean> {
  const [row] = await c
    .get('db')
    .select({ id: users.id })
    .from(users)
    .where(and(ne(users.id, userId), eq(sql`lower(${users.username})`, username.toLowerCase())))
    .limit(1);
  return Boolean(row);
}

export const cabinetRoutes = router()
  .openapi(
    createRoute({
      method: 'get',
      path: '/me',
      tags: ['Кабінет'],
      summary: 'Кабінет поточного користувача',
      security: bearer,
      middleware: [signedIn] as const,
      responses: { 200: jsonResponse(cabinetSchema, 'Кабінет'), ...errors(401) },
    }),
    async (c) => {
      const { user } = requireUser(c);
      c.header('Cache-Control', 'no-store');
      return c.json(await presentCabinet(c.get('db'), user), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/me',
      tags: ['Кабінет'],
      summary: 'Змінити аватар (multipart, поле avatar) або нікнейм і email; новий email діє після підтвердження',
      security: bearer,
      middleware: [signedIn, uploadTurn] as const,
      request: {
        body: {
          content: {
            'multipart/form-data': { schema: avatarForm },
            'application/json': { schema: profileInput },
          },
        },
      },
      responses: { 200: jsonResponse(cabinetUpdateResponse, 'Збережено'), ...errors(400, 401, 409, 413, 415, 429) },
    }),
    async (c) => {
      const { user } = requireUser(c);
      const db = c.get('db');
      const isForm = (c.req.header('content-type') ?? '').startsWith('multipart/form-data');
      const input: z.infer<typeof avatarForm> = isForm ? c.req.valid('form') : c.req.valid('json');
      const username = input.username && input.username !== user.username ? input.username : undefined;
      const email = input.email && input.email.toLowerCase() !== user.email.toLowerCase() ? input.email : undefined;
      if (!input.avatar && !username && !email) fail(400, 'cabinet.nothingToChange');

      if (username && (await usernameTaken(c, user.id, username))) fail(409, 'auth.usernameTaken');
      if (username && (await usernameLooksTaken(db, username, user.id))) fail(409, 'auth.usernameLookAlike');
      // A new address is answered alike whether or not another account has it (no probing whose
      // address is whose); its letter, counted like any letter anyone can make the site send, says
      // which it was. Counted before anything changes, so a refusal changes nothing.
      const addressOwner = email ? await findByEmail(db, email) : undefined;
      if (email) {
        const wait = await countLetter(c.get('deps').limits, `user:${user.id}`, email);
        if (wait !== null) failTooMany('auth.tooManyAttempts', wait);
      }

      let picture: Awaited<ReturnType<typeof processUpload>> | undefined;
      if (input.avatar) {
        const limit = await c.get('deps').limits.hit(`upload:user:${user.id}`, UPLOAD_LIMIT);
        if (!limit.allowed) failTooMany('upload.tooMany', limit.retryAfter);
        picture = await processUpload(input.avatar);
      }

      const { updated, emailToken } = await db
        .transaction(async (tx) => {
          const changes: Partial<typeof users.$inferInsert> = {};
          if (username) Object.assign(changes, { username, ...skeletonColumns(username) });
          if (email) changes.pendingEmail = email;
          // The picture being replaced is read under the row's lock, not taken from the session's
          // copy: parallel uploads each replace the one before them, and none is left unreferenced.
          const [current] = picture
            ? await tx.select({ avatarImageId: users.avatarImageId }).from(users).where(eq(users.id, user.id)).for('update')
            : [];
          if (picture) changes.avatarImageId = await storeImage(tx, picture);
          const [row] = await tx.update(users).set(changes).where(eq(users.id, user.id)).returning();
          if (!row) throw new Error('user vanished during update');
          if (current?.avatarImageId) await deleteImage(tx, current.avatarImageId);
          const token = email && !addressOwner ? await issueEmailToken(tx, row, 'email_change', email) : undefined;
          return { updated: row, emailToken: token };
        })
        .catch((error: unknown) => {
          if (isLookAlikeViolation(error)) fail(409, 'auth.usernameLookAlike');
          if (isUniqueViolation(error)) fail(409, 'auth.usernameTaken');
          throw error;
        });

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
    createRoute({
      method: 'put',
      path: '/me/password',
      tags: ['Кабінет'],
      summary: 'Змінити пароль; інші сесії завершуються, поточна лишається',
      security: bearer,
      middleware: [signedIn] as const,
      request: { body: jsonBody(passwordChangeInput) },
      responses: { 200: jsonResponse(messageBody, 'Пароль змінено'), ...errors(400, 401, 415, 429) },
    }),
    async (c) => {
      const { user, sessionId } = requireUser(c);
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
      const passwordHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
        await revokeUserSessions(tx, user.id, sessionId);
      });
      return c.json({ message: t('cabinet.passwordChanged') }, 200);
    },
  );
