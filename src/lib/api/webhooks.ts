import { z } from 'zod';
import { DELIVERY_STATES, WEBHOOK_EVENTS, WEBHOOK_URL_MAX, webhookAddressProblem } from '../domain/organisation-events.ts';
import { t } from '../i18n/index.ts';

/**
 * POST /api/organisations/{id}/webhooks: where to post and which events. The address's form is
 * checked here; an address written as a private IP is refused by the service, and a name that
 * resolves to one when it is dialled (server/outbound/public-only.ts).
 */
export const webhookInput = z.object({
  url: z
    .string()
    .trim()
    .max(WEBHOOK_URL_MAX, { error: () => t('webhooks.badUrl') })
    .superRefine((url, ctx) => {
      const problem = webhookAddressProblem(url, () => null);
      if (problem) ctx.addIssue({ code: 'custom', message: t(`webhooks.${problem}`) });
    }),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: () => t('webhooks.badEvent') }), { error: () => t('webhooks.chooseEvents') })
    // Not `.min`: the API's messages for a too short list speak of characters (api/validation.ts).
    .refine((events) => events.length > 0 && events.length <= WEBHOOK_EVENTS.length, { error: () => t('webhooks.chooseEvents') }),
});

const deliverySchema = z.object({
  _id: z.string(),
  event: z.string(),
  tournament: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

export const webhookSchema = z.object({
  _id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** The receiver said the address is gone (410): nothing more is sent there. */
  broken: z.boolean(),
  createdAt: z.string(),
  /** Its latest deliveries, newest first. */
  log: z.array(deliverySchema),
});
export type WebhookView = z.infer<typeof webhookSchema>;

/** GET /api/organisations/{id}/webhooks. */
export const webhooksSchema = z.object({ webhooks: z.array(webhookSchema), limit: z.number().int() });
export type WebhooksView = z.infer<typeof webhooksSchema>;

/** POST's answer: the new webhook, and its signing secret — shown this once. */
export const webhookCreatedSchema = z.object({ message: z.string(), webhook: webhookSchema, secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;
