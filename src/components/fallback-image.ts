import { DEFAULT_GAME_IMAGE } from '../lib/domain/game-image.ts';

/**
 * An `<img onError>` handler that swaps a broken picture for `picture` (SPEC §8: a broken image
 * shows the default one). If the default fails too, it is left as it is; a new address that
 * fails later is swapped again.
 */
export const fallbackTo =
  (picture: string) =>
  (event: { currentTarget: HTMLImageElement }): void => {
    const img = event.currentTarget;
    if (!img.src.endsWith(picture)) img.src = picture;
  };

/** Swaps a broken game or tournament picture for the default game picture. */
export const showDefaultImage = fallbackTo(DEFAULT_GAME_IMAGE);
