// The build's second entry (astro.config.mjs, scripts/node-entry.ts): what scripts/serve.ts takes
// from the same module graph as Astro's own handler, so one runtime and one app serve both.
import type { NodeHandler } from './api/on-node.ts';
import { streamListener, streamPaths } from './api/on-node.ts';
import { getApp } from './runtime.ts';

/** The app's event streams on Node's own response (decision 047): which paths they are, and their listener. */
export interface EventStreams {
  isStream(path: string): boolean;
  listener: NodeHandler;
}

/** Opens the runtime (the database, on the first call) and gives the server its event streams. */
export async function eventStreams(): Promise<EventStreams> {
  const app = await getApp();
  return { isStream: streamPaths(app), listener: streamListener(app) };
}
