/**
 * The manage page's calls for an organisation's integrations (issue 60), apart from their schemas
 * in integrations.ts, so no zod reaches the browser from here.
 */
import type { ApiClient } from './client.ts';
import type { IntegrationsView } from './integrations.ts';

const path = (id: string) => `organisations/${encodeURIComponent(id)}`;
type Saved = { message: string; integrations: IntegrationsView };

export const readIntegrations = (api: ApiClient, organisationId: string) => api.get(`${path(organisationId)}/integrations`).json<IntegrationsView>();
export const saveDiscord = (api: ApiClient, organisationId: string, url: string) => api.put(`${path(organisationId)}/discord`, { json: { url } }).json<Saved>();
export const removeDiscord = (api: ApiClient, organisationId: string) => api.delete(`${path(organisationId)}/discord`).json<Saved>();
