import net from 'node:net';

export interface RawExchange {
  /** Everything the server sent, as text. */
  received: string;
  /** Status of the first response, when one arrived. */
  status?: number;
  /** Milliseconds from connecting until the server closed the connection (undefined: still open at `giveUpMs`). */
  closedAfterMs?: number;
}

/**
 * Talks HTTP/1.1 over a bare TCP socket, byte by byte as written, for what a well-behaved client
 * library will not do: stop halfway through a body, trickle it, send bytes the parser refuses.
 * `script` writes to the socket (and may wait between writes); the exchange ends when the server
 * closes the connection or after `giveUpMs`.
 */
export function rawExchange(url: string, script: (socket: net.Socket) => Promise<void> | void, giveUpMs: number): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const started = Date.now();
    let received = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      resolve({ received, status: status ? Number(status) : undefined, closedAfterMs: closed ? Date.now() - started : undefined });
    };
    const timer = setTimeout(() => finish(false), giveUpMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => finish(true));
    // The server may close while the script still writes: that ends the exchange, it is no failure.
    socket.on('error', () => finish(true));
    socket.once('connect', () => {
      Promise.resolve(script(socket)).catch((error) => {
        if (!done) reject(error);
      });
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The request line and headers of a POST, ending with the blank line, as bytes to write. */
export function postHead(path: string, headers: Record<string, string>): string {
  const lines = [`POST ${path} HTTP/1.1`, 'Host: localhost', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
