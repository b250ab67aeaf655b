import type { teams as uk } from '../uk/teams.ts';

export const teams: Record<keyof typeof uk, string> = {
};
