export const tournaments = {
} as const;
