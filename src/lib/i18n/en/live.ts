import type { live as uk } from '../uk/live.ts';

/** Live pages (issue 22): refusals of the event streams. */
export const live: Record<keyof typeof uk, string> = {
  'live.tooManyStreams': 'Too many live updates are open from your address, which a whole hall or network probably shares. The page will keep refreshing the usual way.',
  'live.tooManyStreamsHere': 'Too many live updates are open from this device or account. Close the extra tabs — the page will keep refreshing the usual way.',
  'live.busy': 'Live updates are unavailable right now: the server is busy. The page will keep refreshing the usual way.',
};
