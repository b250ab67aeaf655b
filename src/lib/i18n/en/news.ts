import type { news as uk } from '../uk/news.ts';

export const news: Record<keyof typeof uk, string> = {
};
