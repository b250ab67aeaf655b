export interface Turns {
  /** Runs `task` when a place is free; the callers beyond the limit wait, first come first served. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Callers waiting for a place. */
  readonly waiting: number;
  /** The most tasks ever seen running at once (tests and benchmarks read it). */
  readonly peak: number;
  /** Tasks started so far. */
  readonly runs: number;
}

/** At most `limit` tasks run at once; the others wait their turn, in the order they came. */
export function turns(limit: number): Turns {
  let active = 0;
  let peak = 0;
  let runs = 0;
  const queue: (() => void)[] = [];

  const enter = (): Promise<void> => {
    if (active < limit) {
      active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => queue.push(resolve));
  };
  // A finished task hands its place straight to the first in line, so a newcomer cannot jump the queue.
  const leave = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };

  return {
    async run(task) {
      await enter();
      runs++;
      peak = Math.max(peak, active);
      try {
        return await task();
      } finally {
        leave();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    get peak() {
      return peak;
    },
    get runs() {
      return runs;
    },
  };
}
