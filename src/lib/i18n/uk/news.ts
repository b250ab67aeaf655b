export const news = {
} as const;
