export const gameConfig = {
} as const;
