export const stats = {
} as const;
