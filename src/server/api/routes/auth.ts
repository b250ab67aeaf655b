import { createRoute } from '@hono/zod-openapi';
import {
  confirmQuery,
  loginInput,
  loginResponse,
  registerInput,
  resendInput,
} from '../../../lib/api/auth.ts';
import { chosenLocale, t } from '../../../lib/i18n/index.ts';
import { type AppContext, clientOf, limitedAddress } from '../context.ts';
import { deviceOf } from '../device.ts';
import { fail, failTooMany } from '../errors.ts';
import {
  checkPassword,
  confirmEmailToken,
  findByEmail,
  findByLogin,
  findConflict,
  presentUser,
  queueConfirmation,
  registerAccount,
} from '../../services/accounts/accounts.ts';
import { isUniqueViolation } from '../../services/db-errors.ts';
import { isLookAlikeViolation, usernameLooksTaken } from '../../services/accounts/names.ts';
import { countLetter } from '../../services/accounts/letter-limits.ts';
import { startLoginAttempt } from '../../services/accounts/login-attempts.ts';
import { type Limit, withinLimits } from '../../services/rate-limit.ts';
import { rememberLocale } from '../../services/notices/notice-settings.ts';
import { sendLettersNow } from '../../services/notices/notices.ts';
import { createSession, revokeSession } from '../../services/accounts/sessions.ts';
import { errors, jsonBody, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';

/**
 * Sign-ups (decision 035). Per address at levels a shared address lives with: a 200-seat venue, a
 * computer club or a carrier's NAT registering in one hour, name clashes and typos counted too, is
 * not stopped; a flood from one address stops at 300 an hour and 1000 a day (the old 10 an hour
 * stopped a hall after ten players). Per device, 10 an hour: a club's shared computer serves a new
 * player every hour and some, while one browser cannot spend its address's budget. A venue network
 * (TRUSTED_VENUE_NETWORKS) has no per-address count; its devices still do.
 */
export const REGISTER_LIMITS = {
  address: { max: 300, windowSeconds: 60 * 60 },
  addressDaily: { max: 1000, windowSeconds: 24 * 60 * 60 },
  device: { max: 10, windowSeconds: 60 * 60 },
} as const satisfies Record<string, Limit>;

/**
 * Counts a sign-up against its address (unless at a venue) and its device, the most shared first;
 * a refused one counts nowhere, and says which share ran out.
 */
async function countSignUp(c: AppContext): Promise<void> {
  const address = limitedAddress(c);
  const device = `register:device:${deviceOf(c)}`;
  const verdict = await withinLimits(c.get('deps').limits, [
    ...(address === null
      ? []
      : ([
          [`register:ip:${address}`, REGISTER_LIMITS.address],
          [`register:ip-day:${address}`, REGISTER_LIMITS.addressDaily],
        ] as const)),
    [device, REGISTER_LIMITS.device],
  ]);
  if (!verdict.allowed) failTooMany(verdict.refusedBy === device ? 'auth.tooManySignUpsHere' : 'auth.tooManySignUpsFromAddress', verdict.retryAfter);
}

/** Sends the letters a request's transaction queued, now that it has committed. */
const sendQueued = (c: AppContext, ids: readonly string[]) => sendLettersNow(c.get('db'), c.get('deps'), ids);

export const auth = router()
  .openapi(
    createRoute({
      method: 'post',
      path: '/register',
      tags: ['Акаунти'],
      summary: 'Реєстрація; надсилає лист підтвердження',
      request: { body: jsonBody(registerInput) },
      responses: { 201: jsonResponse(messageBody, 'Зареєстровано'), ...errors(400, 409, 415, 429) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const db = c.get('db');
      await countSignUp(c);
      const conflict = await findConflict(db, body.username, body.email);
      if (conflict) fail(409, conflict === 'username' ? 'auth.usernameTaken' : 'auth.emailTaken');
      if (await usernameLooksTaken(db, body.username)) fail(409, 'auth.usernameLookAlike');
      // The account, its token and its letter commit together; a failure leaves none of them.
      const { letter } = await registerAccount(db, body).catch((error: unknown) => {
        // Two registrations racing for one name, or two look-alikes: the unique indexes decide.
        if (isLookAlikeViolation(error)) fail(409, 'auth.usernameLookAlike');
        if (isUniqueViolation(error)) fail(409, 'auth.usernameTaken');
        throw error;
      });
      await sendQueued(c, [letter]);
      return c.json({ message: t('auth.registered') }, 201);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/login',
      tags: ['Акаунти'],
      summary: 'Вхід за нікнеймом або email',
      request: { body: jsonBody(loginInput) },
      responses: { 200: jsonResponse(loginResponse, 'Сесію відкрито'), ...errors(400, 401, 403, 415, 429) },
    }),
    async (c) => {
      const { loginOrEmail, password } = c.req.valid('json');
      const db = c.get('db');
      const user = await findByLogin(db, loginOrEmail);
      // The username and the email of one account share its counter; a name no account has, its own.
      const account = user ? `user:${user.id}` : `name:${loginOrEmail.toLowerCase()}`;
      const attempt = await startLoginAttempt(c.get('deps').limits, account, clientOf(c));
      if (attempt.refused) failTooMany('auth.tooManyAttempts', attempt.retryAfter);
      if (!(await checkPassword(user, password)) || !user) fail(401, 'auth.invalidCredentials');
      await attempt.succeeded();
      if (!user.emailConfirmedAt) fail(403, 'auth.emailNotConfirmed');
      const { token } = await createSession(db, user.id, c.get('deps').sessionTtlDays);
      // The language the reader chose (the `lang` cookie) becomes their letters' language.
      const chosen = chosenLocale(c.req.header('cookie'));
      if (chosen) await rememberLocale(db, user.id, chosen);
      return c.json({ user: await presentUser(db, user), token, message: t('auth.loginSuccess') }, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/logout',
      tags: ['Акаунти'],
      summary: 'Вихід: токен більше не діє',
      responses: { 200: jsonResponse(messageBody, 'Сесію закрито'), ...errors(401) },
    }),
    async (c) => {
      const { sessionId } = c.var.auth;
      await revokeSession(c.get('db'), sessionId);
      return c.json({ message: t('auth.loggedOutServer') }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/confirm',
      tags: ['Акаунти'],
      summary: 'Підтвердження пошти за токеном з листа',
      request: { query: confirmQuery },
      responses: { 200: jsonResponse(messageBody, 'Пошту підтверджено'), ...errors(400, 409) },
    }),
    async (c) => {
      const { token } = c.req.valid('query');
      const result = await confirmEmailToken(c.get('db'), token);
      if (result === 'invalid') fail(400, 'confirm.invalidToken');
      if (result === 'emailTaken') fail(409, 'auth.emailTaken');
      return c.json({ message: t('confirm.confirmed') }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/resend-confirmation',
      tags: ['Акаунти'],
      summary: 'Повторний лист підтвердження',
      request: { body: jsonBody(resendInput) },
      responses: { 200: jsonResponse(messageBody, 'Лист надіслано, якщо акаунт потребує підтвердження'), ...errors(400, 415, 429) },
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      const wait = await countLetter(c.get('deps').limits, { address: limitedAddress(c), device: deviceOf(c) }, email);
      if (wait !== null) failTooMany('auth.tooManyAttempts', wait);
      const user = await findByEmail(c.get('db'), email);
      // The same answer whether or not the address is known, so it cannot be used to probe accounts.
      if (user && !user.emailConfirmedAt) await sendQueued(c, [await queueConfirmation(c.get('db'), user)]);
      return c.json({ message: t('confirm.sentGeneric') }, 200);
    },
  );
