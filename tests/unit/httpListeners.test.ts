/**
 * The server's listener (src/server/httpListeners.ts): a burst of new connections is accepted several per
 * event-loop turn, a port in use is refused, and closing frees the port.
 */
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, listenSockets, type Listener } from '../../src/server/httpListeners.ts';

const answer = () => new Response('ok');
const open: Listener[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((listener) => listener.close(1000)));
});

async function started(sockets?: number, port = 0): Promise<Listener> {
  const listener = await listen(answer, { host: '127.0.0.1', port }, sockets);
  open.push(listener);
  return listener;
}

/**
 * Opens `count` connections while this thread is held (the kernel completes them meanwhile, so
 * all wait in the accept queues together), then counts the event-loop turns until all are accepted.
 */
async function turnsToAccept(listener: Listener, count: number): Promise<number> {
  let accepted = 0;
  for (const server of listener.servers) server.on('connection', () => (accepted += 1));
  const clients = Array.from({ length: count }, () => net.connect(listener.address().port, '127.0.0.1'));
  await new Promise((resolve) => process.nextTick(resolve)); // connect() is called on the next tick
  const until = Date.now() + 300;
  while (Date.now() < until) {
    // a busy server's turn
  }
  let turns = 0;
  while (accepted < count && turns < 10 * count) {
    await new Promise((resolve) => setImmediate(resolve));
    turns += 1;
  }
  for (const client of clients) client.destroy();
  expect(accepted).toBe(count);
  return turns;
}

describe.runIf(process.platform === 'linux')('listen on Linux', () => {
  it('accepts a burst of new connections several per event-loop turn (one socket: one per turn)', async () => {
    const burst = 64;
    expect(await turnsToAccept(await started(1), burst)).toBeGreaterThanOrEqual(burst);
    const turns = await turnsToAccept(await started(), burst);
    expect(listenSockets).toBe(8);
    expect(turns).toBeLessThanOrEqual(burst / 2);
  });

  it('answers through every socket, refuses a port already in use (another portal included) and frees it when closed', async () => {
    const listener = await started();
    expect(listener.servers).toHaveLength(listenSockets);
    const port = listener.address().port;
    for (const server of listener.servers) expect((server.address() as AddressInfo).port).toBe(port);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(`http://127.0.0.1:${port}/`, { headers: { Connection: 'close' } }).then((r) => r.text()),
      ),
    );
    expect(new Set(answers)).toEqual(new Set(['ok']));

    await expect(listen(answer, { host: '127.0.0.1', port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');

    await listener.close(1000);
    open.splice(open.indexOf(listener), 1);
    const again = await started(undefined, port);
    expect(again.address().port).toBe(port);
  });
});
