import type { gameConfig as uk } from '../uk/game-config.ts';

export const gameConfig: Record<keyof typeof uk, string> = {
};
