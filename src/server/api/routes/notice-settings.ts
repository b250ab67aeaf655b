import { z } from '@hono/zod-openapi';
import { localeInput, noticeSettingsSchema, type NoticeSettingsView } from '../../../lib/api/notices.ts';
import { t } from '../../../lib/i18n/index.ts';
import { getNoticeSettings, rememberLocale, saveNoticeSettings } from '../../services/notices/notice-settings.ts';
import { errors, jsonBody, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';

const tags = ['Сповіщення'];
const settingsView = noticeSettingsSchema.required();

/** Mounted at /users/me: the caller's own choices about notices (issue 22). */
export const noticeSettingsRoutes = router()
  .openapi(
    userRoute({
      method: 'get',
      path: '/notice-settings',
      tags,
      summary: 'Які види сповіщень я вимкнув: у дзвіночку (bell), листом (email) і на пристроях (push)',
      responses: {
        200: jsonResponse(settingsView.extend({ emailConfirmed: z.boolean() }) satisfies z.ZodType<NoticeSettingsView>, 'Налаштування; emailConfirmed — чи йдуть листи взагалі'),
        ...errors(401),
      },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await getNoticeSettings(c.get('db'), c.var.auth.user.id), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'put',
      path: '/notice-settings',
      tags,
      summary: 'Зберегти, які види сповіщень вимкнено в кожному каналі (не вказаний канал — усе ввімкнено)',
      request: { body: jsonBody(noticeSettingsSchema) },
      responses: { 200: jsonResponse(z.object({ message: z.string(), settings: settingsView }), 'Збережено'), ...errors(400, 401, 415) },
    }),
    async (c) => {
      const settings = await saveNoticeSettings(c.get('db'), c.var.auth.user.id, c.req.valid('json'));
      return c.json({ message: t('notices.settings.saved'), settings }, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'put',
      path: '/locale',
      tags,
      summary: 'Моя мова (uk або en): нею пишуться листи-сповіщення',
      request: { body: jsonBody(localeInput) },
      responses: { 200: jsonResponse(messageBody, 'Збережено'), ...errors(400, 401, 415) },
    }),
    async (c) => {
      await rememberLocale(c.get('db'), c.var.auth.user.id, c.req.valid('json').locale);
      return c.json({ message: t('notices.localeSaved') }, 200);
    },
  );
