// The part of autocannon's programmatic API the server benchmarks use (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';
  import type { Socket } from 'node:net';

  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface RequestStep extends Request {
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request | undefined;
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    pipelining?: number;
    connectionRate?: number;
    overallRate?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestStep[];
    initialContext?: Record<string, unknown>;
    idReplacement?: boolean;
    excludeErrorStats?: boolean;
    /** Called with each connection's client as it is made. */
    setupClient?: (client: Client) => void;
  }
  /** One connection. Only the parts `lib.ts` touches (`withoutBodies`, `watchUnanswered`): not in autocannon's documented API. */
  export interface Client extends EventEmitter {
    /** `req` is the request's definition; its `requestBuffer` the bytes last built from it (after `setupRequest`). */
    pipelinedRequests: { addBody(data: Buffer): void; peek(): { req: Request & { requestBuffer?: Buffer } } | undefined };
    destroyed: boolean;
    conn: Socket;
    _connect(): void;
    _destroyConnection(): void;
  }
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    total?: number;
  }
  export interface Result {
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    duration: number;
  }
  export interface Instance extends EventEmitter {
    stop(): void;
  }
  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
