/**
 * What an organisation's integrations hear of (issue 60): the moments of its tournaments. Each event
 * is written with the change that caused it, in the same transaction (services/integrations/events.ts),
 * and posted afterwards to every endpoint of the organisation that listens for it: its Discord
 * channel, its Telegram channel, its outgoing webhooks.
 */

export const ENDPOINT_KINDS = ['discord', 'telegram', 'webhook'] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

export const ORGANISATION_EVENTS = [
  'tournament.created',
  'checkIn.opened',
  'round.started',
  'registration.closed',
  'match.ready',
  'match.completed',
  'tournament.finished',
] as const;
export type OrganisationEvent = (typeof ORGANISATION_EVENTS)[number];

/** What a Discord channel announces: a new tournament, check-in opening, each round's start, the champion. */
export const DISCORD_EVENTS = ['tournament.created', 'checkIn.opened', 'round.started', 'tournament.finished'] as const satisfies readonly OrganisationEvent[];
/** What a Telegram channel announces: new tournaments and champions. */
export const TELEGRAM_EVENTS = ['tournament.created', 'tournament.finished'] as const satisfies readonly OrganisationEvent[];
/** What an outgoing webhook may subscribe to (its names are the public contract of issue 60). */
export const WEBHOOK_EVENTS = ['tournament.created', 'registration.closed', 'match.ready', 'match.completed', 'tournament.finished'] as const satisfies readonly OrganisationEvent[];
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATES = ['pending', 'sent', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** What an event says, in no language: the words are the endpoint's, at sending. */
export interface EventPayload {
  tournament: { id: string; title: string; date: string; game: string };
  /** The champion of a finished tournament, if it has one. */
  champion?: string | null;
  /** The round that started: its stage (its name as the organiser gave it, empty for none, and its number) and its number. */
  round?: { stage: string; stageId: string; stageNumber: number; number: number };
  /** When check-in closes, for its opening. */
  closesAt?: string;
  /** The match that became ready or was completed: its sides by name and, when completed, its score and winner. */
  match?: MatchPayload;
  /** How many were accepted when registration closed. */
  participants?: number;
}

export interface MatchPayload {
  id: string;
  stageId: string | null;
  round: number | null;
  sides: { id: string; name: string }[];
  score?: (number | null)[];
  winnerId?: string | null;
}

/**
 * A Discord webhook address as Discord gives it: `https://discord.com/api/webhooks/{id}/{token}`
 * (also the older discordapp.com and the ptb/canary hosts, and an API version). Anything else —
 * another host, a path that only looks like one, credentials, a query — is not one.
 */
const DISCORD_WEBHOOK = /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d{1,2})?\/webhooks\/(\d{17,20})\/([\w-]{60,100})$/;

export function discordWebhook(url: string): { id: string; token: string } | null {
  const match = DISCORD_WEBHOOK.exec(url);
  return match ? { id: match[1]!, token: match[2]! } : null;
}

/** The address as its organisation's managers see it again: the secret token cut to its start. */
export const maskedWebhook = (url: string): string => {
  const parts = discordWebhook(url);
  return parts ? `https://discord.com/api/webhooks/${parts.id}/${parts.token.slice(0, 4)}…` : '';
};

/** Attempts before a delivery is given up, and the first retry's wait (then doubled each time). */
export const DELIVERY_ATTEMPTS = 8;
export const DELIVERY_RETRY_MS = 30_000;

/** When a delivery that failed for the `attempts`-th time is tried again: Retry-After when the service gave one, else 30 s, 1 min, 2 min… */
export const nextAttemptAt = (now: Date, attempts: number, retryAfterMs?: number | null): Date =>
  new Date(now.getTime() + Math.max(retryAfterMs ?? 0, DELIVERY_RETRY_MS * 2 ** Math.max(0, attempts - 1)));

/** Outgoing webhooks an organisation may register at once. */
export const WEBHOOKS_PER_ORGANISATION = 5;
export const WEBHOOK_URL_MAX = 500;

/** Why an outgoing webhook's address cannot be one, or null: a plain http(s) address without credentials, not naming this machine. */
export type WebhookAddressProblem = 'badUrl' | 'credentials' | 'privateAddress';

/** Host names that always mean this machine or a private network, whatever a resolver says. */
const LOCAL_NAMES = /(^|\.)(localhost|local|localdomain|internal|home\.arpa)$/i;

/**
 * What is wrong with an outgoing webhook's address as written; `isPublicLiteral` judges an address
 * written as an IP. A name is judged again when it is dialled, after its lookup
 * (server/outbound/public-only.ts), so what it resolves to later is never trusted from here.
 */
export function webhookAddressProblem(url: string, isPublicLiteral: (host: string) => boolean | null): WebhookAddressProblem | null {
  if (url.length > WEBHOOK_URL_MAX) return 'badUrl';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'badUrl';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'badUrl';
  if (parsed.username || parsed.password) return 'credentials';
  // A name's trailing dot (`localhost.`) is the same name, fully qualified.
  const host = parsed.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  if (!host || LOCAL_NAMES.test(host) || !host.includes('.') && !host.includes(':')) return 'privateAddress';
  return isPublicLiteral(host) === false ? 'privateAddress' : null;
}
