import { DEFAULT_GAME_IMAGE } from '../../lib/domain/game-image.ts';

/*
 * Server-rendered pictures marked `data-fallback` show the default game picture when theirs fails
 * to load (SPEC §2). A bundled script rather than inline `onerror`, so a strict Content-Security-Policy
 * keeps working; pictures that failed before it ran are caught by the first pass.
 */
function showDefault(img: HTMLImageElement) {
  if (img.dataset.fallbackApplied) return;
  img.dataset.fallbackApplied = '1';
  img.src = DEFAULT_GAME_IMAGE;
}

document.addEventListener(
  'error',
  (event) => {
    const target = event.target;
    if (target instanceof HTMLImageElement && target.hasAttribute('data-fallback')) showDefault(target);
  },
  true,
);

for (const img of document.querySelectorAll<HTMLImageElement>('img[data-fallback]')) {
  if (img.complete && img.naturalWidth === 0) showDefault(img);
}
