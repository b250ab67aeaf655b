import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Discord's webhook API on loopback (issue 60): it records what is posted to
 * `/api/v10/webhooks/{id}/{token}` and answers as it is told — 204 by default, or the next of the
 * queued answers: a status with a JSON body (Discord's 404 Unknown Webhook, a 429 with
 * `retry_after`), or `hang` for a service that never answers.
 */
export type DiscordAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang';

export interface DiscordStandIn {
  api: string;
  posts: { path: string; body: { embeds: { title: string; url: string; description: string }[] } }[];
  answer(...answers: DiscordAnswer[]): void;
  close(): Promise<void>;
}

export async function discordStandIn(): Promise<DiscordStandIn> {
  const posts: DiscordStandIn['posts'] = [];
  const queued: DiscordAnswer[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = queued.shift() ?? { status: 204 };
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      posts.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
      // Discord's 204 has no body and so no type: a JSON type on an empty body would not parse.
      res.writeHead(answer.status, { ...(answer.body === undefined ? {} : { 'content-type': 'application/json' }), ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    api: `http://127.0.0.1:${port}/api`,
    posts,
    answer: (...answers) => queued.push(...answers),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
