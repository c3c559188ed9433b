import { checkResponse } from '../../helpers/contract.js';

export interface FetchResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface FetchClient {
  request<T = any>(method: string, path: string, options?: { body?: unknown; key?: string; headers?: Record<string, string> }): Promise<FetchResponse<T>>;
}

/**
 * Requests over a real socket (keep-alive, Node's fetch). Every answer is checked against
 * openapi.yaml like the in-process client does. A request that gets no answer (the server died)
 * rejects: callers must tell "not answered" apart from any status.
 */
export function fetchClient(baseUrl: string, timeoutMs = 15_000): FetchClient {
  return {
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
      const type = response.headers.get('content-type') ?? '';
      const text = await response.text();
      const parsed = type.includes('application/json') && text ? JSON.parse(text) : text;
      checkResponse(method, path, response.status, parsed, type);
      return { status: response.status, body: parsed, headers: response.headers };
    },
  };
}

/** The contract's one error shape, and nothing that leaks internals (stack frames, SQL, addresses). */
export function errorLeaks(body: unknown): string[] {
  const problems: string[] = [];
  if (typeof body !== 'object' || body === null) return ['not a JSON object'];
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'code,errors,message,response_body,status') problems.push(`keys are ${keys}`);
  const text = JSON.stringify(body);
  const leaks = [
    /\bstack\b/i,
    /\n\s+at /,
    /\bat .+\.(ts|js):\d+/,
    /\b(select|insert|update|delete)\b.+\b(from|into|set|where)\b/i,
    /ECONN|EPIPE|ETIMEDOUT/,
    /127\.0\.0\.1|localhost/,
    /postgres|pg_|relation "/i,
  ];
  for (const leak of leaks) if (leak.test(text)) problems.push(`leaks ${leak}: ${text}`);
  return problems;
}
