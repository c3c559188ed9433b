import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** http://127.0.0.1:PORT, forwarding every connection to the target. */
  url: string;
  /** Drops every open connection, as a restarting broker or a proxy timeout would. */
  cut(): void;
  /** While true, new connections are dropped at once (the broker is unreachable). */
  refuse(refusing: boolean): void;
  /** While true, what the broker sends is dropped on the way (answers lost, requests still arrive). */
  mute(muted: boolean): void;
  /** Sends new connections to another target (a broker restarted on another port). */
  retarget(url: string): void;
  close(): Promise<void>;
}

/** A real TCP hop between a client and the broker, so a test can break the network under it. */
export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  let target = new URL(targetUrl);
  const open = new Set<Socket>();
  let refusing = false;
  let muted = false;
  const server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined); // a cut connection errors on both ends; close follows
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => muted || client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: () => {
      for (const socket of open) socket.destroy();
    },
    retarget: (url) => {
      target = new URL(url);
    },
    refuse: (value) => {
      refusing = value;
    },
    mute: (value) => {
      muted = value;
    },
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
