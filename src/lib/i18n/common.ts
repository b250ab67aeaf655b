import { scope } from './core.ts';
import { common as uk } from './uk/common.ts';

export { currentLocale, LOCALE_COOKIE, localeOfCookie } from './core.ts';

/**
 * The layout's texts only (site name, navigation, list paging, shared validation): what the islands
 * on every page need. Loaded like the full catalog in `index.ts`, English only where it is read, but
 * about a tenth of its size, so a page whose islands need no more does not download the rest.
 */
export type CommonKey = keyof typeof uk;

/** The layout's `t`: takes only a CommonKey (uk/common.ts), so a text from elsewhere does not type-check here. */
export const { t, translate } = await scope<CommonKey>(uk, async () => (await import('./en/common.ts')).common);
