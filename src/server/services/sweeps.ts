/**
 * Work that falls due with time rather than with a request (issue 22): the end of a check-in
 * window, a report nobody answered, letters still to send. Every instance runs every sweep; each
 * sweep claims its rows (`for update skip locked`, or an update guarded by the state it changes),
 * so whatever several instances do at once is done exactly once. Requests that depend on one (a
 * stage drawn after check-in, a report read after its time) also run it for their own rows first,
 * so nothing waits for the next tick.
 */
import type { Database } from '../db/client.ts';

export interface Sweep {
  name: string;
  /** How often it runs. */
  everyMs: number;
  run(db: Database, now: Date): Promise<unknown>;
}

/** The sweeps the server runs; each feature adds its own here. */
export const SWEEPS: Sweep[] = [];

/**
 * Starts every sweep on a timer that does not keep the process alive; a run never overlaps the
 * previous one of the same sweep, and a failure is logged and tried again on the next tick.
 * Returns a stop function.
 */
export function startSweeps(db: Database, sweeps: readonly Sweep[] = SWEEPS): () => void {
  const timers = sweeps.map((sweep) => {
    let running = false;
    return setInterval(() => {
      if (running) return;
      running = true;
      sweep
        .run(db, new Date())
        .catch((error: unknown) => console.error(`[sweep ${sweep.name}]`, error))
        .finally(() => (running = false));
    }, sweep.everyMs).unref();
  });
  return () => timers.forEach(clearInterval);
}
