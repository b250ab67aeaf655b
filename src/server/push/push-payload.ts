/**
 * What a web push carries and when a failed one is tried again (issue 60): pure rules, unit-tested
 * (tests/unit/push-payload.test.ts). The service worker (public/sw.js) reads the payload.
 */

/** The payload public/sw.js shows: a title, a line, the site path a click opens, and a tag (a second copy replaces the first). */
export interface PushPayload {
  title: string;
  body: string;
  /** A path on this site (`/matches/…`); the service worker opens nothing else. */
  url: string;
  /** The notice's id: a notice pushed twice shows once. */
  tag: string;
  lang: string;
}

/** The longest title and line a push carries, in characters: a phone shows about two lines, and the payload stays far below the 4 KB a push service takes. */
export const PUSH_TITLE_MAX = 100;
export const PUSH_BODY_MAX = 300;
const PATH_MAX = 500;

/** `text` cut to `max` characters (whole code points), with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const points = [...text.trim().replace(/\s+/g, ' ')];
  return points.length <= max ? points.join('') : `${points.slice(0, max - 1).join('').trimEnd()}…`;
}

/** A site path the service worker may open: the notice's own when it is one (starts with a single `/`), else the home page. */
export function sitePath(link: string | null | undefined): string {
  return link && /^\/(?![/\\])/.test(link) && link.length <= PATH_MAX ? link : '/';
}

/** The JSON a push carries: title and line clipped, the link made a site path. */
export function pushPayload(notice: { title: string; body: string; link: string | null | undefined; id: string; lang: string }): string {
  const payload: PushPayload = {
    title: clip(notice.title, PUSH_TITLE_MAX),
    body: clip(notice.body, PUSH_BODY_MAX),
    url: sitePath(notice.link),
    tag: notice.id,
    lang: notice.lang,
  };
  return JSON.stringify(payload);
}

/**
 * A notice's id as a push topic: URL-safe base64 of the UUID's 16 bytes (22 characters; RFC 8030
 * allows 32), so the push service keeps one undelivered copy of a notice however often it is sent.
 */
export function pushTopic(id: string): string | undefined {
  const hex = id.replace(/-/g, '');
  return /^[0-9a-f]{32}$/i.test(hex) ? Buffer.from(hex, 'hex').toString('base64url') : undefined;
}

/** Tries per push before it is given up. */
export const PUSH_ATTEMPTS = 5;
/** The wait after the first failed try; each next one doubles it (15 s, 30 s, 1 min, 2 min). */
export const PUSH_RETRY_MS = 15_000;

/** How long to wait after the `attempt`-th failed try (1 = the first) before the next. */
export const pushBackoffMs = (attempt: number): number => PUSH_RETRY_MS * 2 ** Math.max(0, attempt - 1);

/** When a push that failed its `attempt`-th try is due again: after the back-off, or later when the service asked for more. */
export function pushRetryAt(failedAt: Date, attempt: number, askedMs?: number): Date {
  return new Date(failedAt.getTime() + Math.max(pushBackoffMs(attempt), askedMs ?? 0));
}
