import type { stats as uk } from '../uk/stats.ts';

export const stats: Record<keyof typeof uk, string> = {
};
