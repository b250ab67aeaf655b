import { news, notifications, savedNews } from '../schema/index.ts';
import { factory, uniqueName } from './factory.ts';

type NewsInsert = typeof news.$inferInsert;
type NotificationInsert = typeof notifications.$inferInsert;

/** News: a unique title, a line of text, current (not archived), dated now, no picture or link. */
export const newsFactory = factory(news, (overrides: Partial<NewsInsert> = {}): NewsInsert => ({
  title: uniqueName('Новина '),
  content: 'Текст новини.',
  imageUrl: null,
  link: null,
  archived: false,
  date: new Date(),
  ...overrides,
}));

/** News a reader saved, now; `userId` and `newsId` are required. */
export const savedNewsFactory = factory(savedNews, (overrides: typeof savedNews.$inferInsert) => overrides);

/** Notifications in the bell: unread, without actions; `userId` is required. */
export const notificationFactory = factory(
  notifications,
  (overrides: Partial<NotificationInsert> & Pick<NotificationInsert, 'userId'>): NotificationInsert => ({
    text: 'Сповіщення.',
    read: false,
    actions: [],
    actionType: null,
    payload: {},
    ...overrides,
  }),
);
