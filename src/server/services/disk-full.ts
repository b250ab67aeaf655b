/**
 * Whether writes are failing for lack of disk space, for /api/health (routes/health.ts).
 *
 * Health does not write to find out: a write for every balancer probe would cost the database a
 * transaction every few seconds for ever, and a small write proves little, since a full disk
 * refuses what needs a new page or file while a row that fits an existing page still goes in. The
 * writes the site makes anyway are the probe: the API's error handler records a write refused for
 * lack of space, and a write that succeeds afterwards clears it. A refusal counts for
 * `DISK_FULL_WINDOW_MS` at most: a balancer that took this instance out sends it no writes that
 * could clear it, so it gets the instance back after that time, and the next refused write
 * takes it out again.
 *
 * One process, one record: PostgreSQL's disk is shared with other instances, which each learn of
 * it from their own writes.
 */

/** How long a refused write keeps health saying the disk is full, when no write has succeeded since. */
export const DISK_FULL_WINDOW_MS = 60_000;

/** When a client refused for lack of space may try again, in seconds: freeing space takes a person. */
export const DISK_FULL_RETRY_AFTER = 30;

let lastRefusal: number | null = null;

/** A write was refused for lack of space (`isDiskFull` in db-errors.ts). */
export function recordDiskFull(now = Date.now()): void {
  lastRefusal = now;
}

/** A write succeeded: there is space again, or there was for this one. */
export function recordWriteSaved(): void {
  lastRefusal = null;
}

/** Whether the last write refused for lack of space is recent and none has succeeded since. */
export function diskFullLately(now = Date.now()): boolean {
  return lastRefusal !== null && now - lastRefusal < DISK_FULL_WINDOW_MS;
}
