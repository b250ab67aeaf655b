import { createRoute, z } from '@hono/zod-openapi';
import { SHARE_CARD_KINDS } from '../../../lib/domain/share-card.ts';
import { locales, type Locale } from '../../../lib/i18n/index.ts';
import { t } from '../../../lib/i18n/index.ts';
import { limitedAddress } from '../context.ts';
import { fail, failTooMany, failWith } from '../errors.ts';
import type { Limit } from '../../services/rate-limit.ts';
import {
  readyShareCardPicture,
  SHARE_CARD_MISSING,
  ShareCardsBusy,
  shareCardContent,
  shareCardDigest,
  shareCardPicture,
} from '../../services/content/share-cards.ts';
import { errors, router } from '../openapi.ts';

/** `{id}.png`: the card's file name under its kind. */
const FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.png$/i;

/**
 * Crawlers and browsers may keep a card five minutes and show the kept one while they fetch it
 * again for an hour: a result shows on the next card asked for after that, and pages that name a
 * version (`shareCardPath`) get a new address at once.
 */
const CARD_CACHE = 'public, max-age=300, stale-while-revalidate=3600';

/**
 * Drawings (cards neither held nor being drawn) one address may cause: generous, so a crawler
 * fetching a page's few cards is never refused, while one address cannot keep the queue full.
 */
export const SHARE_CARD_DRAWING_LIMIT: Limit = { max: 60, windowSeconds: 60 };

const picture = { description: 'Картка PNG 1200×630', content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } } };

const matches = (ifNoneMatch: string | undefined, etag: string) =>
  Boolean(ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*'));

/** Share cards (issue 23): the Open Graph picture of a tournament, a match, a news item or a player, drawn from their data. */
export const shareCardRoutes = router().openapi(
  createRoute({
    method: 'get',
    path: '/{kind}/{file}',
    tags: ['Картки'],
    summary: 'Картка для поширення (Open Graph, PNG 1200×630) турніру, матчу, новини, гравця чи організації: /api/og/{kind}/{id}.png?lang=uk|en',
    request: {
      params: z.object({
        kind: z.enum(SHARE_CARD_KINDS),
        file: z.string().regex(FILE, 'Очікується {id}.png'),
      }),
      query: z.object({
        lang: z.enum(locales as [Locale, ...Locale[]]).optional(),
        /** Names the version of the data the page saw: only a new address for crawlers' caches. */
        v: z.string().max(64).optional(),
      }),
    },
    responses: { 200: picture, 304: { description: 'Не змінилася' }, ...errors(400, 404, 429, 503) },
  }),
  async (c) => {
    const { kind, file } = c.req.valid('param');
    const locale = c.req.valid('query').lang ?? 'uk';
    const id = FILE.exec(file)![1]!.toLowerCase();
    const content = await shareCardContent(c.get('db'), kind, id, locale, new URL(c.get('deps').siteUrl).host);
    if (!content) fail(404, SHARE_CARD_MISSING[kind]);
    const digest = shareCardDigest(content);
    const etag = `"og-${digest}"`;
    const headers = { ETag: etag, 'Cache-Control': CARD_CACHE, 'X-Content-Type-Options': 'nosniff' };
    // The digest names what the card says: a reader who has it needs no drawing at all.
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    let ready = readyShareCardPicture(kind, id, locale, digest);
    if (!ready) {
      // Only a drawing counts: a held card or a 304 costs nothing. A venue network is not counted
      // (decision 035): drawings still go one at a time, with a short line (ShareCardsBusy).
      const address = limitedAddress(c);
      const state = address === null ? null : await c.get('deps').limits.hit(`og:ip:${address}`, SHARE_CARD_DRAWING_LIMIT);
      if (state && !state.allowed) failTooMany('share.tooMany', state.retryAfter);
      ready = shareCardPicture(kind, id, locale, content, digest);
    }
    const png = await ready.catch((error: unknown) => {
      // Too many drawings wait already: the server's overload answer, as for a full read queue.
      if (error instanceof ShareCardsBusy) failWith(503, t('error.unavailable'), { 'Retry-After': '5' });
      throw error;
    });
    return c.body(png, 200, { ...headers, 'Content-Type': 'image/png' });
  },
);
