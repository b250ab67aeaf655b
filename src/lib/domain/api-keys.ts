/**
 * An organisation's API keys (issue 60, decision 045): what a key may do, its form and its limits,
 * shared by the server and the manage page.
 */

/** `read`: the public API and its organisation's tournaments' private reads; `run`: also running them. */
export const API_KEY_SCOPES = ['read', 'run'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Every secret starts so: told apart from a session's token at a glance, and by the server before any lookup. */
export const API_KEY_PREFIX = 'ka_';
/** How much of a secret is kept and shown, to tell keys apart: the prefix and eight characters. */
export const API_KEY_SHOWN = API_KEY_PREFIX.length + 8;
/** A name's length. */
export const API_KEY_NAME_MAX = 60;
/** Live keys an organisation holds at once. */
export const API_KEYS_PER_ORGANISATION = 20;
/** Requests one key makes in a minute. */
export const API_KEY_REQUESTS_PER_MINUTE = 600;

/** Whether a bearer token is an API key's secret rather than a session's token. */
export const isApiKeySecret = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

/** Whether a key of `scope` may call a route open to keys of `needed`. */
export const scopeAllows = (scope: ApiKeyScope, needed: ApiKeyScope): boolean => scope === 'run' || needed === 'read';
