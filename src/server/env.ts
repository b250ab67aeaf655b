import './zod-locale.ts';
import { isIP } from 'node:net';
import { z } from 'zod';
import { NO_PROXY, NO_VENUE, proxyTrust, venueNetworks, type ProxyTrust, type VenueNetworks } from './transport.ts';

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Our proxies, whose X-Forwarded-For and X-Forwarded-Proto are believed (as Express's `trust proxy`):
 * a comma list of their addresses, networks (CIDR) and proxy-addr's names for networks: `loopback`
 * (127.0.0.0/8, ::1), `linklocal` (169.254.0.0/16, fe80::/10), `uniquelocal` (10.0.0.0/8,
 * 172.16.0.0/12, 192.168.0.0/16, fc00::/7). `true` is `loopback`, a proxy on this machine; `false`,
 * `0` or unset, none. A number of proxies is refused: counting hops from the right believes
 * whoever reaches the port directly and writes the header himself.
 */
const proxies = z.string().transform((value, ctx): ProxyTrust => {
  const text = value.trim().toLowerCase();
  if (['false', 'no', '0'].includes(text)) return NO_PROXY;
  if (['true', 'yes'].includes(text)) return proxyTrust(['loopback']);
  if (/^\d+$/.test(text)) {
    ctx.addIssue({ code: 'custom', message: 'кількість проксі не каже, кому вірити: перелічіть через кому адреси або мережі ваших проксі (наприклад, loopback або 10.0.0.0/8)' });
    return z.NEVER;
  }
  const list = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const wrong = list.filter((entry) => {
    try {
      proxyTrust([entry]);
      return false;
    } catch {
      return true;
    }
  });
  for (const entry of wrong) ctx.addIssue({ code: 'custom', message: `«${entry}» — не IP-адреса, не мережа (CIDR) і не loopback, linklocal чи uniquelocal` });
  if (list.length === 0) ctx.addIssue({ code: 'custom', message: 'перелічіть через кому адреси або мережі ваших проксі, або false' });
  return wrong.length > 0 || list.length === 0 ? z.NEVER : proxyTrust(list);
});

/** The widest network a venue may name, by IP version: an IPv4 /8 (a LAN party's 10.0.0.0/8), an IPv6 /32. */
const WIDEST_VENUE = { 4: 8, 6: 32 } as const;

/**
 * What is wrong with one entry of a venue network, in Ukrainian, or null when it names one: the one
 * rule for TRUSTED_VENUE_NETWORKS and for the networks organisers ask for (services/venues).
 */
export function venueProblem(entry: string): string | null {
  const notOne = `«${entry}» — не IP-адреса і не мережа (CIDR), як-от 203.0.113.7 чи 192.168.0.0/16`;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) return notOne;
  const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
  if (bits > (family === 4 ? 32 : 128)) return notOne;
  const widest = WIDEST_VENUE[family as 4 | 6];
  if (bits < widest) return `«${entry}» — мережа ширша за /${widest}: стільки адрес не буває в жодній залі, а обмеження на адресу зникли б для всіх них`;
  let inside: VenueNetworks;
  try {
    inside = venueNetworks([entry]);
  } catch {
    return notOne;
  }
  if (inside('127.0.0.1') || inside('::1')) {
    return `«${entry}» містить loopback (127.0.0.1, ::1) — адресу цієї машини: так виглядає кожен клієнт за проксі, коли TRUST_PROXY не задано`;
  }
  return null;
}

/**
 * Venue networks (issue 57): a comma list of the addresses and CIDR networks of LANs, computer clubs
 * and halls whose players share one address. Addresses inside are left alone by the per-address
 * limits (registrations, letters, failed sign-ins, share cards, event streams); the per-device and
 * per-account ones still count them (docs/decisions/035-limits-at-a-venue.md). Unset, none. A name
 * (`loopback`, a host), a network wider than an IPv4 /8 or an IPv6 /32, or one holding loopback is
 * refused: each would leave far more than a venue unlimited.
 */
const venues = z.string().transform((value, ctx): VenueNetworks => {
  const list = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (list.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'перелічіть через кому адреси або мережі (CIDR) залів, або не задавайте змінну' });
    return z.NEVER;
  }
  const problems = list.map(venueProblem).filter((problem) => problem !== null);
  for (const message of problems) ctx.addIssue({ code: 'custom', message });
  return problems.length > 0 ? z.NEVER : venueNetworks(list);
});

/**
 * Event streams open at once: per process, per client address, per device (its cookie) and per
 * account (the user's own stream). An open stream costs about 22 KB of the server's heap through
 * Astro and the route (decision 031), so the process's cap keeps the streams inside the server's
 * heap limit and its 384 MB budget with the reads going on; past any cap a page falls back to
 * polling. A server with more memory may take more (EVENT_STREAMS_MAX). An address is shared by a
 * venue, a computer club or a carrier's NAT: 256 keep most of a 300-seat hall live (the rest poll)
 * while one address holds at most a sixteenth of the process. One browser, or one account, has no
 * use for more than 8: a page holds one tournament stream and one of its own, and hidden tabs close
 * theirs (decision 035).
 */
/**
 * Web push's contact (issue 60): the `mailto:` address or `https:` page a push service may reach the
 * site's operator at, signed into every push (VAPID's `sub`). Set, push is on; unset, off.
 */
const pushSubject = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      if (url.protocol === 'mailto:') return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(decodeURIComponent(url.pathname));
      return url.protocol === 'https:' && url.hostname !== 'localhost' && url.hostname !== '';
    } catch {
      return false;
    }
  },
  { message: 'має бути mailto:адреса@пошти або https://адреса-сайту (не localhost): за нею служби push зможуть звʼязатися з вами' },
);

export const EVENT_STREAMS_DEFAULTS = { max: 4000, perAddress: 256, perDevice: 8, perAccount: 8 } as const;

const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  HOST: z.string().min(1).default('localhost'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'має починатися з postgres://')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  SITE_URL: z.url().optional(),
  PUBLIC_API_URL: z.url().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'має починатися з redis:// або rediss://')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'має починатися з smtp:// або smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Кіберарена <no-reply@kiberarena.local>'),
  ADMIN_EMAIL: z.email().default('admin@kiberarena.local'),
  ADMIN_PASSWORD: z.string().min(8, 'щонайменше 8 символів').max(128).optional(),
  SEED_DEMO: flag.optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  TRUST_PROXY: proxies.default(() => NO_PROXY),
  /** Venue networks whose shared addresses the per-address limits leave alone (`venues` above); unset, none. */
  TRUSTED_VENUE_NETWORKS: venues.default(() => NO_VENUE),
  /** Page renders let into Astro at once (decision 019): each holds a half-built page, and two cores render only so many. */
  CONCURRENT_READS: z.coerce.number().int().min(1).max(1000).default(6),
  /** API reads let in at once; unset: `apiReads` below decides. */
  CONCURRENT_API_READS: z.coerce.number().int().min(1).max(1000).optional(),
  /** Live pages' event streams open at once in this process (503 past it), and from one client address outside venue networks (429 past it). */
  EVENT_STREAMS_MAX: z.coerce.number().int().min(1).max(100_000).default(EVENT_STREAMS_DEFAULTS.max),
  EVENT_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(EVENT_STREAMS_DEFAULTS.perAddress),
  /** Discord's API, where organisations' channels are posted to (issue 60); a stand-in's address in tests. */
  DISCORD_API_ROOT: z.url().default('https://discord.com/api'),
  /** Whether this process runs the timed work (check-in ends, automatic confirmations, the letters' and pushes' outboxes); on by default. */
  SWEEPS: flag.default(true),
  /** Web push's contact (`pushSubject` above); unset, push is off and its controls are hidden. */
  PUSH_SUBJECT: pushSubject.optional(),
  /** The Telegram bot's token from BotFather (issue 60, decision 043); unset, Telegram is off and its controls are hidden. */
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d{3,20}:[\w-]{20,100}$/, 'має бути токеном бота від @BotFather: 123456789:AA…')
    .optional(),
  /** Telegram's Bot API: https://api.telegram.org, or a stand-in's address in tests. */
  TELEGRAM_API_ROOT: z.url().default('https://api.telegram.org'),
  /** What Telegram sends with every update to the webhook; unset, one is derived from the token. */
  TELEGRAM_WEBHOOK_SECRET: z
    .string()
    .regex(/^[\w-]{16,256}$/, 'від 16 до 256 латинських літер, цифр, _ або -')
    .optional(),
  /** How updates come: by webhook (the default when SITE_URL is a public https address) or by long polling (otherwise; one instance only). */
  TELEGRAM_MODE: z.enum(['webhook', 'polling']).optional(),
  /** Sign-in with Discord (issue 60, decision 044): on when both are set; unset, no Discord button and its routes answer 404. */
  DISCORD_CLIENT_ID: z.string().regex(/^\d{5,30}$/, 'має бути Application ID з Discord Developer Portal (лише цифри)').optional(),
  DISCORD_CLIENT_SECRET: z.string().min(8).max(200).optional(),
  /** Where Discord's OAuth 2 lives (authorize, token, /users/@me); a stand-in's address in tests. */
  DISCORD_OAUTH_ROOT: z.url().default('https://discord.com'),
  /** Sign-in with Steam through OpenID 2.0 (issue 60, decision 044); Steam needs no key. */
  STEAM_SIGN_IN: flag.default(false),
  /** Steam's OpenID provider; a stand-in's address in tests. */
  STEAM_OPENID_ENDPOINT: z.url().default('https://steamcommunity.com/openid'),
  /** A Steam Web API key: the profile then shows the Steam persona name; unset, the SteamID64. */
  STEAM_API_KEY: z.string().regex(/^[0-9A-Fa-f]{32}$/, 'має бути ключем Steam Web API (32 шістнадцяткові символи)').optional(),
  /** Steam's Web API; a stand-in's address in tests. */
  STEAM_API_ROOT: z.url().default('https://api.steampowered.com'),
});

export type Env = z.infer<typeof schema> & {
  seedDemo: boolean;
  /** API reads let into Astro at once: CONCURRENT_API_READS, or `apiReads`'s default for the database. */
  apiReads: number;
  /** The site's public address, for links in letters: SITE_URL, or the address the server listens on. */
  siteUrl: string;
};

/**
 * Reads the environment once. A wrong variable stops the process with every problem listed,
 * instead of failing later in some request.
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Неправильні змінні середовища:\n${lines.join('\n')}`);
  }
  const env = result.data;
  // Demo data makes a fresh embedded database look alive; a real PostgreSQL is left clean unless asked.
  return {
    ...env,
    seedDemo: env.SEED_DEMO ?? !env.DATABASE_URL,
    apiReads: env.CONCURRENT_API_READS ?? (env.DATABASE_URL ? POSTGRES_API_READS : EMBEDDED_API_READS),
    siteUrl: env.SITE_URL?.replace(/\/+$/, '') ?? listeningAddress(env.HOST, env.PORT),
  };
}

/**
 * API reads let in at once on PostgreSQL (decision 023): a poll spends its place waiting for the
 * database and the loop, not rendering, so more fit than renders.
 */
export const POSTGRES_API_READS = 16;

/**
 * API reads let in at once on the embedded database. PGlite runs one statement at a time on the
 * server's own thread: reads let in beyond this only queue there and leave the writes less of the
 * thread (decision 023; the measurements are in decision 032).
 */
export const EMBEDDED_API_READS = 10;

/**
 * Where this server can be reached on the machine it runs on: `npm start` prints it. Links never
 * come from a request's Host header, which whoever sends the request writes.
 */
export function listeningAddress(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/**
 * Set by `npm start` for the server it supervises: the database was migrated, its admin made and
 * its demo data added before the server started (scripts/prepare.ts), so a restart after a crash
 * goes straight to serving instead of spending a second on it again.
 */
export const DATABASE_PREPARED = 'KIBERARENA_DATABASE_PREPARED';

export class EnvError extends Error {
  override name = 'EnvError';
}
