import { scope } from './core.ts';
import { common } from './uk/common.ts';
import { notifications } from './uk/notifications.ts';

/**
 * The bell's texts and the layout's: a signed-in reader's page whose other islands need no more
 * does not download the rest of the catalog. Loaded like `common.ts`.
 */
const uk = { ...common, ...notifications };
export type NotificationsKey = keyof typeof uk;

/** The bell's `t`: takes only a NotificationsKey (uk/common.ts and uk/notifications.ts). */
export const { t } = await scope<NotificationsKey>(uk, async () => {
  const [english, bell] = await Promise.all([import('./en/common.ts'), import('./en/notifications.ts')]);
  return { ...english.common, ...bell.notifications };
});
