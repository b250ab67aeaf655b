/**
 * Organisations (issue 56): clubs, schools, streamers and federations hosting their own events.
 * The one owner of an organisation's roles and what each may do, its slug and its links; the
 * schema, the zod shapes, the services and the islands read these.
 */

/** Highest first: an owner (one) does everything, an admin all but delete and change owners, staff run tournaments. */
export const ORGANISATION_ROLES = ['owner', 'admin', 'staff'] as const;
export type OrganisationRole = (typeof ORGANISATION_ROLES)[number];
/** The roles a member may be given by adding or changing them; ownership is only handed over. */
export const GIVEN_ROLES = ['admin', 'staff'] as const satisfies readonly OrganisationRole[];

/** How many organisations one account may own: keeps one spammer from filling the directory. */
export const MAX_OWNED_ORGANISATIONS = 3;
/** How many tournaments an unverified organisation may publish in a day (a rolling 24 hours). */
export const UNVERIFIED_DAILY_TOURNAMENTS = 10;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Most people one organisation may have (owner, admins and staff together). */
export const MAX_MEMBERS = 50;
export const ORGANISATION_NAME_MAX = 64;
export const ORGANISATION_DESCRIPTION_MAX = 2000;
export const SUSPENSION_REASON_MAX = 500;
export const SLUG_MIN = 3;
export const SLUG_MAX = 40;
/** Latin letters, digits and single hyphens inside, lower case: readable in a link and in speech. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9]))*$/;
/** Words the site's own pages or a reader could take for the site itself. */
const RESERVED_SLUGS = new Set(['new', 'manage', 'admin', 'api', 'kiberarena', 'settings', 'edit', 'org', 'organisations', 'suspended']);

/**
 * Shaped as an id (8-4-4-4-12 hexadecimal digits): an address takes either an id or a slug, and
 * reads such a one as an id, so a slug of this shape would name another organisation, or nothing.
 */
export const isIdShaped = (slug: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(slug);

export const isValidSlug = (slug: string): boolean =>
  slug.length >= SLUG_MIN && slug.length <= SLUG_MAX && SLUG_PATTERN.test(slug) && !RESERVED_SLUGS.has(slug) && !isIdShaped(slug);

/** Ukrainian letters in Latin, after the national transliteration table of 2010 (in its simple, mid-word form). */
const LATIN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'h', ґ: 'g', д: 'd', е: 'e', є: 'ie', ж: 'zh', з: 'z', и: 'y', і: 'i', ї: 'i', й: 'i',
  к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch',
  ш: 'sh', щ: 'shch', ь: '', ю: 'iu', я: 'ia', ё: 'e', ъ: '', ы: 'y', э: 'e', 'ʼ': '', "'": '', '’': '',
};

/**
 * A slug made from a name when none was given: transliterated, lower case, every other run of
 * characters a hyphen ("Кіберклуб «Львів»" → "kiberklub-lviv"); empty when nothing is left.
 */
export function slugFromName(name: string): string {
  const latin = Array.from(name.normalize('NFKC').toLowerCase(), (ch) => LATIN[ch] ?? ch).join('');
  const slug = latin
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug;
}

/** Where an organisation may point its readers, each checked against the service's own hosts. */
export const LINK_KINDS = ['site', 'discord', 'telegram', 'youtube', 'twitch'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];
export type OrganisationLinks = Partial<Record<LinkKind, string>>;
export const LINK_MAX = 300;

/** The hosts each kind of link may name (any subdomain of them too); a site may be anywhere. */
const LINK_HOSTS: Record<Exclude<LinkKind, 'site'>, readonly string[]> = {
  discord: ['discord.gg', 'discord.com'],
  telegram: ['t.me', 'telegram.me'],
  youtube: ['youtube.com', 'youtu.be'],
  twitch: ['twitch.tv'],
};

/** Whether `value` is a link of that kind: https (a site may be http too), a host of its service, no credentials. */
export function isLinkOf(kind: LinkKind, value: string): boolean {
  if (value.length > LINK_MAX || !/^https?:\/\//i.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hostname === '') return false;
  if (kind === 'site') return url.protocol === 'https:' || url.protocol === 'http:';
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return LINK_HOSTS[kind].some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

/** What a member of `role` may do in their organisation (null: not a member). */
export function organisationPowers(role: OrganisationRole | null) {
  return {
    /** Run its tournaments: applications, check-in, stages, results, disputes; edit and delete them. */
    organise: role !== null,
    /** Create tournaments for it, change its profile, add, change and remove admins and staff. */
    manage: role === 'owner' || role === 'admin',
    /** Hand ownership over and delete the organisation. */
    own: role === 'owner',
  };
}

/**
 * Whether `actor` may change a member from `from` to `to` (null: remove). The owner is changed only
 * by handing over ownership (`to: 'owner'`, the owner alone); admins manage admins and staff.
 */
export function mayChangeMember(actor: OrganisationRole | null, from: OrganisationRole, to: OrganisationRole | null): boolean {
  if (actor === 'owner') return from !== 'owner';
  if (actor === 'admin') return from !== 'owner' && to !== 'owner';
  return false;
}
