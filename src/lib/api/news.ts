import { z } from 'zod';
import { isSafeNewsUrl, NEWS_CONTENT_MAX, NEWS_TITLE_MAX, NEWS_URL_MAX } from '../domain/news.ts';
import { t, type MessageKey } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';

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
    .max(NEWS_URL_MAX)
    .refine((value) => value === '' || isSafeNewsUrl(value), { error: () => t('news.invalidUrl', { field: t(field) }) })
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

/** `GET /news?archived=true|false`; without it, current and archived news together. */
export const newsListQuery = z.object({ archived: z.enum(['true', 'false']).optional() });

export const savedNewsSchema = z.array(z.string());

export const listNews = (api: ApiClient, options: { archived?: boolean } = {}) =>
  api
    .get('news', options.archived === undefined ? {} : { searchParams: { archived: String(options.archived) } })
    .json<NewsItem[]>();
export const getNews = (api: ApiClient, id: string) => api.get(`news/${encodeURIComponent(id)}`).json<NewsItem>();
export const createNews = (api: ApiClient, body: NewsInput) => api.post('news', { json: body }).json<NewsItem>();
export const updateNews = (api: ApiClient, id: string, body: NewsUpdate) =>
  api.put(`news/${encodeURIComponent(id)}`, { json: body }).json<NewsItem>();
export const deleteNews = (api: ApiClient, id: string) => api.delete(`news/${encodeURIComponent(id)}`).json<{ message: string }>();

/** Ids of the news the caller saved. */
export const listSavedNews = (api: ApiClient) => api.get('news/saved').json<string[]>();
export const saveNews = (api: ApiClient, id: string) => api.post(`news/saved/${encodeURIComponent(id)}`).json<{ message: string }>();
export const unsaveNews = (api: ApiClient, id: string) => api.delete(`news/saved/${encodeURIComponent(id)}`).json<{ message: string }>();
