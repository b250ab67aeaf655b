import { useEffect } from 'react';
import { watchImageFallbacks } from './image-fallback.ts';

/**
 * Draws nothing: swaps broken server-rendered pictures (`data-fallback`) for the default game
 * picture. An island rather than a page script, so content pages send no JavaScript but islands.
 */
export default function ImageFallback() {
  useEffect(() => watchImageFallbacks(), []);
  return null;
}
