/** Where the API lives when it is not on this origin (SPEC §7 Images: server paths get the API host). */
const apiBase = import.meta.env.PUBLIC_API_URL;

/** The address of a picture the API serves: unchanged on one origin, prefixed with the API host otherwise. */
export function apiAsset(path: string): string {
  if (!apiBase || !path.startsWith('/api/')) return path;
  return new URL(path, apiBase).href;
}

export const DEFAULT_AVATAR = '/default_avatar.svg';
