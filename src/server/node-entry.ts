// The build's second entry (astro.config.mjs, scripts/node-entry.ts): what scripts/serve.ts takes
// from the same module graph as Astro's own handler, so one runtime, one app and one answer cache
// serve both.
import type { NodeHandler } from './api/on-node.ts';
import { streamListener, streamPaths } from './api/on-node.ts';
import { getApp, getRuntime } from './runtime.ts';
import { publicAnswers } from './serving/answer-cache.ts';
import { heldReads, type HeldReads } from './serving/held-reads.ts';

/** The app's event streams on Node's own response (decision 047): which paths they are, and their listener. */
export interface EventStreams {
  isStream(path: string): boolean;
  listener: NodeHandler;
}

/** What the server answers before Astro's handler. */
export interface BeforeAstro {
  streams: EventStreams;
  /** Guests' fresh held reads (decision 048). */
  held: HeldReads;
}

/** Opens the runtime (the database, on the first call) and gives the server what it answers before Astro. */
export async function beforeAstro(): Promise<BeforeAstro> {
  const app = await getApp();
  const { env, deps } = await getRuntime();
  return {
    streams: { isStream: streamPaths(app), listener: streamListener(app) },
    held: heldReads(publicAnswers, deps, env.SITE_URL ? env.siteUrl : null),
  };
}
