/**
 * The server's HTTP listener: on Linux, several sockets on one port (SO_REUSEPORT), all answering
 * with the same app.
 *
 * Why: libuv accepts one connection per event-loop turn ("unix: don't accept() connections in a
 * loop", libuv 1.45), and on a busy server a turn lasts milliseconds, since it answers every
 * connection that is ready. So a burst of new connections waited one turn each, far longer than
 * any request took the server (measured in docs/performance.md, "What changed").
 * The kernel spreads new connections over the sockets, and each one accepts a connection per turn.
 */
import net, { type AddressInfo } from 'node:net';
import { createAdaptorServer, type ServerType } from '@hono/node-server';

/** Sockets per port: a burst of new connections is accepted up to this many per turn. */
export const listenSockets = process.platform === 'linux' ? 8 : 1;

export interface Listener {
  /** The first socket's server (its address is every socket's). */
  server: ServerType;
  servers: ServerType[];
  address(): AddressInfo;
  /** Stops accepting; resolves once open requests ended, or after `graceMs`, closing what is left. */
  close(graceMs: number): Promise<void>;
}

type Fetch = Parameters<typeof createAdaptorServer>[0]['fetch'];

function listenOn(server: ServerType | net.Server, options: net.ListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: ServerType | net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function listen(
  fetch: Fetch,
  options: { host: string; port: number },
  sockets = listenSockets,
): Promise<Listener> {
  // A port held by anyone (another instance of the portal included, which would otherwise join
  // the group of sockets and take half the visitors) fails here, before any socket is shared.
  const probe = net.createServer();
  await listenOn(probe, { host: options.host, port: options.port });
  const port = (probe.address() as AddressInfo).port;
  await closeServer(probe);

  const servers: ServerType[] = [];
  try {
    for (let index = 0; index < sockets; index += 1) {
      const server = createAdaptorServer({ fetch, hostname: options.host });
      await listenOn(server, { host: options.host, port, reusePort: sockets > 1 });
      servers.push(server);
    }
  } catch (error) {
    await Promise.all(servers.map(closeServer));
    throw error;
  }
  const first = servers[0]!;
  return {
    server: first,
    servers,
    address: () => first.address() as AddressInfo,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          for (const server of servers) if ('closeAllConnections' in server) server.closeAllConnections();
          resolve();
        }, graceMs);
        force.unref();
        void Promise.all(servers.map(closeServer)).then(() => {
          clearTimeout(force);
          resolve();
        });
        for (const server of servers) if ('closeIdleConnections' in server) server.closeIdleConnections();
      }),
  };
}
