import net from 'node:net';

/**
 * What the database looks like through the proxy: reachable; gone (open connections are cut and
 * new ones reset at once); or hanging (open connections stop carrying data, new ones are accepted
 * and never answered), like a server stuck on a full disk or a dead network path.
 */
export type ProxyMode = 'up' | 'down' | 'hanging';

export interface TcpProxy {
  port: number;
  set(mode: ProxyMode): void;
  close(): Promise<void>;
}

/** A TCP proxy in front of a server, to stop or stall it for the app without touching the server. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'up';
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const server = net.createServer((client) => {
    track(client);
    if (mode === 'down') return void client.destroy();
    if (mode === 'hanging') return;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    for (const [a, b] of [pair, [upstream, client]] as const) {
      a.on('close', () => {
        pairs.delete(pair);
        b.destroy();
      });
      a.pipe(b);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const cutAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    set(next) {
      mode = next;
      if (next === 'hanging') {
        for (const [client, upstream] of pairs) {
          client.unpipe(upstream).pause();
          upstream.unpipe(client).pause();
        }
      } else {
        // Going down or coming back cuts what is open, as a database restart would.
        cutAll();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        cutAll();
        server.close(() => resolve());
      }),
  };
}
