/**
 * The manage page's calls for an organisation's outgoing webhooks (issue 60), apart from their
 * schemas in webhooks.ts, so no zod reaches the browser from here.
 */
import type { ApiClient } from './client.ts';
import type { WebhookCreated, WebhooksView } from './webhooks.ts';

const path = (id: string) => `organisations/${encodeURIComponent(id)}/webhooks`;

export const readWebhooks = (api: ApiClient, organisationId: string) => api.get(path(organisationId)).json<WebhooksView>();
export const createWebhook = (api: ApiClient, organisationId: string, input: { url: string; events: string[] }) =>
  api.post(path(organisationId), { json: input }).json<WebhookCreated>();
export const deleteWebhook = (api: ApiClient, organisationId: string, webhookId: string) =>
  api.delete(`${path(organisationId)}/${encodeURIComponent(webhookId)}`).json<{ message: string }>();
