import { persistentAtom } from '@nanostores/persistent';

export type Theme = 'dark' | 'light';

/** Site theme, dark by default, mirrored to `<body data-theme>`. */
export const $theme = persistentAtom<Theme>('theme', 'dark', {
  encode: (value) => value,
  decode: (value) => (value === 'light' ? 'light' : 'dark'),
});

/** Whether the side navigation is collapsed to icons. */
export const $navCollapsed = persistentAtom<boolean>('nav_collapsed', false, {
  encode: (value) => (value ? '1' : '0'),
  decode: (value) => value === '1',
});

if (typeof document !== 'undefined') {
  $theme.subscribe((theme) => {
    document.body.dataset.theme = theme;
  });
}
