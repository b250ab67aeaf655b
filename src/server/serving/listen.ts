// Listening on the server's port with several sockets (issue 24, bench/server FINDINGS F29).
//
// libuv accepts one connection per listening socket per turn of the event loop. Under the load mix
// a turn of the server's loop takes 100–200 ms, so new connections were taken six to ten a second:
// of 200 clients arriving together, the last waited 4–5 s before the server read a byte of theirs,
// though it then answered in a few hundred milliseconds (the writers' "first 5 s" of F27 and F28).
// Sockets sharing the port (SO_REUSEPORT, which Linux spreads connections over) each give one
// accept a turn. The extra ones are plain TCP servers that hand what they accept to the HTTP
// server, which then owns the connection as if it had accepted it: its timeouts, its keep-alive,
// its count of connections.
import type { Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';

/** Sockets listening on the port where the platform shares one (Linux): this many connections are taken per turn. */
export const LISTENERS = 32;

/** Whether this platform lets several sockets listen on one port, spreading connections over them. */
export const sharesPorts = () => process.platform === 'linux';

function listenOn(server: Server, port: number, host: string, reusePort: boolean): Promise<void> {
  return new Promise((done, failed) => {
    server.once('error', failed);
    server.listen({ port, host, ...(reusePort ? { reusePort } : {}) }, () => {
      server.off('error', failed);
      done();
    });
  });
}

/**
 * Makes `server` listen on `port` (0: one the system picks) with `listeners` sockets. The extra
 * ones close with it.
 */
export async function listen(server: HttpServer, port: number, host: string, listeners = sharesPorts() ? LISTENERS : 1): Promise<void> {
  if (listeners <= 1) return listenOn(server, port, host, false);
  // Sockets of one user may all share a port: a second server started by mistake would quietly take
  // half the connections. A socket that does not share it is refused a port in use, as before.
  const probe = createServer();
  await listenOn(probe, port, host, false);
  const bound = (probe.address() as AddressInfo).port;
  await new Promise((done) => probe.close(done));
  await listenOn(server, bound, host, true);
  // As Node's HTTP server sets up the sockets it accepts itself.
  const extras = Array.from({ length: listeners - 1 }, () => createServer({ noDelay: true }, (socket) => server.emit('connection', socket)));
  server.once('close', () => extras.forEach((extra) => extra.close()));
  try {
    await Promise.all(extras.map((extra) => listenOn(extra, bound, host, true)));
  } catch (error) {
    server.close();
    throw error;
  }
}
