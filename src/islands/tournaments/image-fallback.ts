import { showDefaultImage } from '../../components/fallback-image.ts';

/*
 * Server-rendered pictures marked `data-fallback` show the default game picture when theirs fails
 * to load (SPEC §2). Run by ImageFallback.astro's script rather than inline `onerror`, so a strict
 * Content-Security-Policy keeps working; pictures that failed before it ran are caught by the first pass.
 */
const showDefault = (img: HTMLImageElement) => showDefaultImage({ currentTarget: img });

function onError(event: Event) {
  const target = event.target;
  if (target instanceof HTMLImageElement && target.hasAttribute('data-fallback')) showDefault(target);
}

/** Starts watching the page's `data-fallback` pictures; returns how to stop. */
export function watchImageFallbacks(): () => void {
  document.addEventListener('error', onError, true);
  for (const img of document.querySelectorAll<HTMLImageElement>('img[data-fallback]')) {
    if (img.complete && img.naturalWidth === 0) showDefault(img);
  }
  return () => document.removeEventListener('error', onError, true);
}
