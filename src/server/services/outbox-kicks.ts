import type { Database } from '../db/client.ts';

/**
 * Sending an outbox's due rows right after a request committed them (the letters', the pushes'),
 * instead of at the next sweep. `kick` never throws and never makes the request wait; one kick
 * runs at a time per database, and one asked for while another goes on makes it run once more,
 * so nothing waits for the sweep. `kicked` resolves once the kicks started are done (tests and a
 * closing app wait for it).
 */
export function outboxKicks<Deps>(send: (db: Database, deps: Deps) => Promise<unknown>, failure: string) {
  /** Per database: the kick going on, and whether another was asked for meanwhile. */
  const kicks = new WeakMap<Database, { done: Promise<void>; again: boolean }>();
  const kick = (db: Database, deps: Deps): void => {
    const going = kicks.get(db);
    if (going) {
      going.again = true;
      return;
    }
    const started = { done: Promise.resolve(), again: false };
    started.done = (async () => {
      do {
        started.again = false;
        await send(db, deps).catch((error: unknown) => console.error(failure, error));
      } while (started.again);
      // In the same turn as the last check, so a kick asked for after it starts anew.
      kicks.delete(db);
    })();
    kicks.set(db, started);
  };
  const kicked = async (db: Database): Promise<void> => {
    for (let going = kicks.get(db); going; going = kicks.get(db)) await going.done;
  };
  return { kick, kicked };
}
