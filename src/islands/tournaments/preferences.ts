import { persistentAtom } from '@nanostores/persistent';
import {
  DEFAULT_PREFERENCES,
  PREFERENCE_KEYS,
  parseSortOrder,
  parseStatusFilter,
  parseTypeFilter,
  type SortOrder,
  type StatusFilter,
  type TypeFilter,
} from '../../lib/domain/tournament-list.ts';

/** The tournament list's three choices, kept in localStorage as plain words (SPEC §9: tl_filter, tl_status, tl_sort). */
export const $typeFilter = persistentAtom<TypeFilter>(PREFERENCE_KEYS.type, DEFAULT_PREFERENCES.type, {
  encode: (value) => value,
  decode: parseTypeFilter,
});
export const $statusFilter = persistentAtom<StatusFilter>(PREFERENCE_KEYS.status, DEFAULT_PREFERENCES.status, {
  encode: (value) => value,
  decode: parseStatusFilter,
});
export const $sortOrder = persistentAtom<SortOrder>(PREFERENCE_KEYS.sort, DEFAULT_PREFERENCES.sort, {
  encode: (value) => value,
  decode: parseSortOrder,
});

/** Back to all, all, newest first. */
export function resetPreferences(): void {
  $typeFilter.set(DEFAULT_PREFERENCES.type);
  $statusFilter.set(DEFAULT_PREFERENCES.status);
  $sortOrder.set(DEFAULT_PREFERENCES.sort);
}
