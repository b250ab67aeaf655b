export const teams = {
} as const;
