import { boolean, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';

export const news = pgTable(
  'news',
  {
    id: id(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    imageUrl: text('image_url'),
    link: text('link'),
    archived: boolean('archived').notNull().default(false),
    date: at('date').notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: createdAt('updated_at'),
  },
  // Current or archived news, newest first. All news at once is read whole: a scan and a sort.
  (t) => [index('news_archived_date_idx').on(t.archived, t.date)],
);

export const savedNews = pgTable(
  'saved_news',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newsId: uuid('news_id')
      .notNull()
      .references(() => news.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  // The key serves "my saved news"; the second index, deleting a news item with its saved marks.
  (t) => [primaryKey({ columns: [t.userId, t.newsId] }), index('saved_news_news_idx').on(t.newsId)],
);
