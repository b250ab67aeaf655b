import { admin } from './uk/admin.ts';
import { auth } from './uk/auth.ts';
import { common } from './uk/common.ts';

/**
 * Ukrainian, the default language. Every visible string of the site lives in uk/ and en/, one
 * file per feature with the same name in both; a test keeps their keys equal.
 */
export const uk = { ...common, ...auth, ...admin } as const;

export type MessageKey = keyof typeof uk;
