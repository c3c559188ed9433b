import http from 'node:http';
import https from 'node:https';
import type { FetchFunction } from '@miniqueue/sdk';

export interface KeepAliveFetch {
  fetch: FetchFunction;
  close(): void;
}

/**
 * A fetch over node:http with keep-alive agents, one socket per request in flight. The load
 * generator shares the machine with what it measures, and plain node:http costs less CPU per
 * request than the global fetch; it is also what `npm run bench` drives the broker with, so
 * the two report comparable figures.
 */
export function keepAliveFetch(maxSockets: number): KeepAliveFetch {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets }),
  };
  const send = (url: URL, init: RequestInit): Promise<Response> =>
    new Promise((resolve, reject) => {
      const body = typeof init.body === 'string' ? init.body : undefined;
      const headers = Object.fromEntries(new Headers(init.headers));
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const transport = url.protocol === 'https:' ? https : http;
      const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
      const request = transport.request(url, { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const answer = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: answer }));
        });
      });
      request.on('error', (error) => reject(Object.assign(error, { reusedSocket: request.reusedSocket })));
      request.end(body);
    });
  const fetch: FetchFunction = async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    try {
      return await send(url, init);
    } catch (error) {
      // The server closed an idle keep-alive socket as we reused it: the request never reached it,
      // so sending it again is safe (the case Node's documentation gives for retrying).
      const { reusedSocket, code } = error as { reusedSocket?: boolean; code?: string };
      if (reusedSocket && code === 'ECONNRESET') return send(url, init);
      throw error;
    }
  };
  return { fetch, close: () => Object.values(agents).forEach((agent) => agent.destroy()) };
}
