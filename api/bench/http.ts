import http from 'node:http';

export interface Reply {
  status: number;
  body: any;
}

/**
 * A small HTTP/1.1 client over keep-alive sockets (node:http, no fetch layer on top), so the
 * figures measure the broker rather than the client library.
 */
export class BenchClient {
  private readonly agent: http.Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(
    baseUrl: string,
    private readonly key: string,
    maxSockets: number,
  ) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  async request(method: string, path: string, body?: unknown): Promise<Reply> {
    try {
      return await this.send(method, path, body);
    } catch (error) {
      // The server closed an idle keep-alive socket just as we reused it (its keepAliveTimeout
      // raced our next request): the request never reached it, so sending it again is safe.
      // This is the retry Node's documentation recommends for exactly this case.
      if ((error as { reusedSocket?: boolean }).reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
        return this.send(method, path, body);
      }
      throw error;
    }
  }

  private send(method: string, path: string, body?: unknown): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = { authorization: `Bearer ${this.key}` };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
      const request = http.request({ host: this.host, port: this.port, method, path, headers, agent: this.agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null });
          } catch {
            resolve({ status: response.statusCode ?? 0, body: text });
          }
        });
        response.on('error', reject);
      });
      request.on('error', (error) => reject(Object.assign(error, { reusedSocket: request.reusedSocket })));
      request.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Fails loudly on an unexpected status: a benchmark that counts errors as work is worthless. */
export function expectStatus(reply: Reply, ...statuses: number[]): Reply {
  if (!statuses.includes(reply.status)) {
    throw new Error(`expected ${statuses.join(' or ')}, got ${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`);
  }
  return reply;
}

export interface LoadResult {
  messages: number;
  requests: number;
  seconds: number;
}

/**
 * Runs `step` from `concurrency` loops at once until `maxSteps` were started, `maxSeconds`
 * passed, or a step returns null (nothing left to do). Each step says how many messages it
 * handled with how many requests.
 */
export async function runLoad(
  options: { concurrency: number; maxSteps: number; maxSeconds: number },
  step: () => Promise<{ messages: number; requests: number } | null>,
): Promise<LoadResult> {
  const started = process.hrtime.bigint();
  const deadline = Date.now() + options.maxSeconds * 1000;
  const total = { steps: 0, messages: 0, requests: 0 };
  let done = false;
  const loop = async () => {
    while (!done && total.steps < options.maxSteps && Date.now() < deadline) {
      total.steps += 1;
      const handled = await step();
      if (handled === null) done = true;
      else {
        total.messages += handled.messages;
        total.requests += handled.requests;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { messages: total.messages, requests: total.requests, seconds };
}
