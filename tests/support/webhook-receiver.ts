import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A receiver of outgoing webhooks on loopback (issue 60), as an organisation's own server would be:
 * it records each request's headers and raw body (a signature is checked over the bytes as sent)
 * and answers as it is told — 204 by default, or the next answer queued for the request's path: a
 * status with headers and a body, or `hang` for a server that never answers.
 */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceiver {
  /** The receiver's address, with `path` appended. */
  url(path?: string): string;
  port: number;
  received: ReceivedHook[];
  answer(path: string, ...answers: ReceiverAnswer[]): void;
  close(): Promise<void>;
}

export async function webhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const queued = new Map<string, ReceiverAnswer[]>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = queued.get(req.url ?? '')?.shift() ?? { status: 204 };
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      received.push({ path: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks/kiberarena') => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    answer: (path, ...answers) => queued.set(path, [...(queued.get(path) ?? []), ...answers]),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
