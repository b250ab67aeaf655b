/**
 * The manage page's calls for an organisation's API keys (issue 60), apart from their schemas in
 * api-keys.ts, so no zod reaches the browser from here.
 */
import type { ApiKeyScope } from '../domain/api-keys.ts';
import type { ApiClient } from './client.ts';
import type { ApiKeyCreated, ApiKeyList, ApiKeyRevoked } from './api-keys.ts';

const path = (id: string) => `organisations/${encodeURIComponent(id)}/api-keys`;

export const readApiKeys = (api: ApiClient, organisationId: string) => api.get(path(organisationId)).json<ApiKeyList>();
export const createApiKey = (api: ApiClient, organisationId: string, name: string, scope: ApiKeyScope) =>
  api.post(path(organisationId), { json: { name, scope } }).json<ApiKeyCreated>();
export const revokeApiKey = (api: ApiClient, organisationId: string, keyId: string) =>
  api.delete(`${path(organisationId)}/${encodeURIComponent(keyId)}`).json<ApiKeyRevoked>();
