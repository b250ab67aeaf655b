// How large a request body the API takes, in one place: the app enforces it (api/app.ts).
import { MAX_UPLOAD_BYTES } from '../../lib/api/limits.ts';

/** JSON bodies are small; uploads get their own, larger limit where they are accepted. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Routes that take a picture, with room for the multipart envelope around it. */
export const UPLOAD_PATHS: ReadonlySet<string> = new Set(['/api/cabinet/me']);
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;

/** The most bytes a request to `path` (no query) may send. */
export const bodyLimitOf = (path: string): number => (UPLOAD_PATHS.has(path) ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT);
