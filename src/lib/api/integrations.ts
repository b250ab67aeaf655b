import { z } from 'zod';
import { DELIVERY_STATES, discordWebhook, ORGANISATION_EVENTS } from '../domain/organisation-events.ts';
import { t } from '../i18n/index.ts';

/** PUT /api/organisations/{id}/discord: the channel's webhook address, as Discord gives it. */
export const discordInput = z.object({
  url: z
    .string()
    .trim()
    .max(300, { error: () => t('integrations.discord.badUrl') })
    .refine((url) => discordWebhook(url) !== null, { error: () => t('integrations.discord.badUrl') }),
});

/** A delivery as a channel's or a webhook's log shows it. */
export const deliverySchema = z.object({
  _id: z.string(),
  event: z.enum(ORGANISATION_EVENTS),
  tournament: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  /** The service's last answer; 0 when it gave none (down or too slow). */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

/** GET /api/organisations/{id}/integrations: the Discord channel (its token cut short) and the latest deliveries. */
export const integrationsSchema = z.object({
  discord: z.object({ url: z.string(), broken: z.boolean(), locale: z.enum(['uk', 'en']) }).nullable(),
  log: z.array(deliverySchema),
});
export type IntegrationsView = z.infer<typeof integrationsSchema>;
