import type { tournaments as uk } from '../uk/tournaments.ts';

export const tournaments: Record<keyof typeof uk, string> = {
};
