import { z } from 'zod';
import { ADDRESS_MAX, isSafeAddress } from '../domain/address.ts';
import { NEWS_CONTENT_MAX, NEWS_TITLE_MAX } from '../domain/news.ts';
import { t, type MessageKey } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';
import { pageParams, pageQuery, readPage, type Page } from './paging.ts';

/** A news item as the API shows it (SPEC §3 News). `date` is ISO 8601. */
export const newsItemSchema = z.object({
  _id: z.string(),
  title: z.string(),
  content: z.string(),
  imageUrl: z.string().nullable(),
  link: z.string().nullable(),
  archived: z.boolean(),
  date: z.string(),
});
export type NewsItem = z.infer<typeof newsItemSchema>;

/** An image or link address: http(s) or a path on this site; empty or null means none. */
const newsUrl = (field: MessageKey) =>
  z
    .string()
    .trim()
    .max(ADDRESS_MAX)
    .refine((value) => value === '' || isSafeAddress(value), { error: () => t('news.invalidUrl', { field: t(field) }) })
    .nullable()
    .optional();

const title = z.string().trim().min(1).max(NEWS_TITLE_MAX);
const content = z.string().trim().min(1).max(NEWS_CONTENT_MAX);

/** Body of `POST /news`: title and content required (SPEC §5); the rest optional. */
export const newsInput = z.object({
  title,
  content,
  imageUrl: newsUrl('field.imageUrl'),
  link: newsUrl('field.link'),
  archived: z.boolean().optional(),
});
export type NewsInput = z.infer<typeof newsInput>;

/** Body of `PUT /news/{id}`: the same fields; those left out stay as they are. */
export const newsUpdate = newsInput.partial();
export type NewsUpdate = z.infer<typeof newsUpdate>;

/**
 * `GET /news?archived=true|false`, a page at a time (`limit`, `offset`; at most 100); without
 * `archived`, current and archived news together.
 */
export const newsListQuery = z.object({ archived: z.enum(['true', 'false']).optional() }).extend(pageQuery);

export const savedNewsSchema = z.array(z.string());

export async function listNews(api: ApiClient, options: { archived?: boolean; limit?: number; offset?: number } = {}): Promise<Page<NewsItem>> {
  const searchParams = { ...(options.archived === undefined ? {} : { archived: String(options.archived) }), ...pageParams(options) };
  return readPage<NewsItem>(await api.get('news', { searchParams }));
}
export const getNews = (api: ApiClient, id: string) => api.get(`news/${encodeURIComponent(id)}`).json<NewsItem>();
export const createNews = (api: ApiClient, body: NewsInput) => api.post('news', { json: body }).json<NewsItem>();
export const updateNews = (api: ApiClient, id: string, body: NewsUpdate) =>
  api.put(`news/${encodeURIComponent(id)}`, { json: body }).json<NewsItem>();
export const deleteNews = (api: ApiClient, id: string) => api.delete(`news/${encodeURIComponent(id)}`).json<{ message: string }>();

/** Ids of the news the caller saved. */
export const listSavedNews = (api: ApiClient) => api.get('news/saved').json<string[]>();
/** The news the caller saved, newest first. */
export const listSavedNewsItems = (api: ApiClient) => api.get('news/saved/items').json<NewsItem[]>();
export const saveNews = (api: ApiClient, id: string) => api.post(`news/saved/${encodeURIComponent(id)}`).json<{ message: string }>();
export const unsaveNews = (api: ApiClient, id: string) => api.delete(`news/saved/${encodeURIComponent(id)}`).json<{ message: string }>();
