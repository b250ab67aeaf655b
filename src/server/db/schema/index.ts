export * from './accounts.ts';
export * from './images.ts';
export * from './games.ts';
export * from './teams.ts';
export * from './tournaments.ts';
export * from './news.ts';
export * from './notifications.ts';
export * from './stats.ts';
