// One thread of `cannonThreads` (lib.ts): an autocannon run over `paths` in turn, its every latency
// and its counts sent back to the thread that started it. (In a worker thread autocannon's own
// result carries its histograms encoded for its workers mode, so the counts are read from it here.)
import { parentPort, workerData } from 'node:worker_threads';
import { cannon, failures, rotating, type SpreadOptions, type ThreadRun } from './lib.ts';

const { url, connections, duration, headers, paths, offset } = workerData as SpreadOptions & { offset: number };
const run = await cannon({ url, connections, duration, headers, requests: rotating(paths, offset) });
const counts = run.result as unknown as {
  totalCompletedRequests: number;
  totalBytes: number;
  duration: number;
};
const sent: ThreadRun = {
  latencies: run.latencies,
  answers: counts.totalCompletedRequests,
  bytes: counts.totalBytes,
  seconds: counts.duration,
  failed: failures(run),
};
parentPort!.postMessage(sent);
