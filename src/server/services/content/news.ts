import { and, desc, eq } from 'drizzle-orm';
import type { NewsInput, NewsItem, NewsUpdate } from '../../../lib/api/news.ts';
import type { Page } from '../../../lib/api/paging.ts';
import type { Tx } from '../../db/client.ts';
import { news, savedNews } from '../../db/schema/index.ts';
import { changed } from '../live/changes.ts';

type NewsRow = typeof news.$inferSelect;

/** A news row in the API's shape (SPEC §3 News). */
export const presentNews = (row: NewsRow): NewsItem => ({
  _id: row.id,
  title: row.title,
  content: row.content,
  imageUrl: row.imageUrl,
  link: row.link,
  archived: row.archived,
  date: row.date.toISOString(),
});

/** An optional address from a request: empty means none. */
const address = (value: string | null | undefined) => (value ? value : null);

/** Every order ends in the id, so pages never overlap or skip an item. */
const NEWEST_FIRST = [desc(news.date), desc(news.createdAt), desc(news.id)];

/** News newest first, a page at a time; `archived` picks current (false) or archived (true) ones, else both. */
export async function listNews(db: Tx, filter: { archived?: boolean | undefined; limit: number; offset: number }): Promise<Page<NewsItem>> {
  // One row past the page tells whether there is a next one, without counting them all.
  const rows = await db
    .select()
    .from(news)
    .where(filter.archived === undefined ? undefined : eq(news.archived, filter.archived))
    .orderBy(...NEWEST_FIRST)
    .limit(filter.limit + 1)
    .offset(filter.offset);
  return { items: rows.slice(0, filter.limit).map(presentNews), more: rows.length > filter.limit };
}

/** The news a user saved, newest first (a reader saves a handful, so it is one list). */
export async function listSavedNewsItems(db: Tx, userId: string): Promise<NewsItem[]> {
  const rows = await db
    .select({ news })
    .from(savedNews)
    .innerJoin(news, eq(news.id, savedNews.newsId))
    .where(eq(savedNews.userId, userId))
    .orderBy(...NEWEST_FIRST);
  return rows.map((row) => presentNews(row.news));
}

/** One news item, or null when there is none with that id. */
export async function findNews(db: Tx, id: string): Promise<NewsItem | null> {
  const [row] = await db.select().from(news).where(eq(news.id, id));
  return row ? presentNews(row) : null;
}

/** Publishes a news item dated now. */
export async function createNews(db: Tx, input: NewsInput): Promise<NewsItem> {
  changed('news');
  const [row] = await db
    .insert(news)
    .values({
      title: input.title,
      content: input.content,
      imageUrl: address(input.imageUrl),
      link: address(input.link),
      archived: input.archived ?? false,
    })
    .returning();
  return presentNews(row!);
}

/** Changes the given fields of a news item; null when it does not exist. Its date stays. */
export async function updateNews(db: Tx, id: string, input: NewsUpdate): Promise<NewsItem | null> {
  changed('news');
  const changes: Partial<typeof news.$inferInsert> = { updatedAt: new Date() };
  if (input.title !== undefined) changes.title = input.title;
  if (input.content !== undefined) changes.content = input.content;
  if (input.imageUrl !== undefined) changes.imageUrl = address(input.imageUrl);
  if (input.link !== undefined) changes.link = address(input.link);
  if (input.archived !== undefined) changes.archived = input.archived;
  const [row] = await db.update(news).set(changes).where(eq(news.id, id)).returning();
  return row ? presentNews(row) : null;
}

/** Deletes a news item (saved marks go with it); false when it did not exist. */
export async function deleteNews(db: Tx, id: string): Promise<boolean> {
  changed('news');
  const rows = await db.delete(news).where(eq(news.id, id)).returning({ id: news.id });
  return rows.length > 0;
}

/** Ids of the news one user saved, most recently saved first. */
export async function listSavedNewsIds(db: Tx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: savedNews.newsId })
    .from(savedNews)
    .where(eq(savedNews.userId, userId))
    .orderBy(desc(savedNews.createdAt));
  return rows.map((r) => r.id);
}

/** Marks a news item saved for a user (again is fine); false when the news does not exist. */
export async function saveNewsFor(db: Tx, userId: string, newsId: string): Promise<boolean> {
  if (!(await newsExists(db, newsId))) return false;
  try {
    await db.insert(savedNews).values({ userId, newsId }).onConflictDoNothing();
  } catch (error) {
    // Deleted between the check and the insert: the foreign key says so.
    if (isForeignKeyViolation(error)) return false;
    throw error;
  }
  return true;
}

const isForeignKeyViolation = (error: unknown): boolean => {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23503') return true;
  }
  return false;
};

/** Removes a saved mark (absent is fine); false when the news does not exist. */
export async function unsaveNewsFor(db: Tx, userId: string, newsId: string): Promise<boolean> {
  if (!(await newsExists(db, newsId))) return false;
  await db.delete(savedNews).where(and(eq(savedNews.userId, userId), eq(savedNews.newsId, newsId)));
  return true;
}

async function newsExists(db: Tx, id: string): Promise<boolean> {
  const [row] = await db.select({ id: news.id }).from(news).where(eq(news.id, id));
  return Boolean(row);
}
