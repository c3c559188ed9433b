import type { Server } from '@hapi/hapi';
import { checkResponse } from './contract.js';

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

export interface HttpClient {
  request<T = any>(
    method: string,
    url: string,
    options?: { body?: unknown; key?: string; headers?: Record<string, string>; rawBody?: string },
  ): Promise<TestResponse<T>>;
  get<T = any>(url: string, key?: string): Promise<TestResponse<T>>;
  post<T = any>(url: string, body?: unknown, key?: string, headers?: Record<string, string>): Promise<TestResponse<T>>;
  patch<T = any>(url: string, body?: unknown, key?: string): Promise<TestResponse<T>>;
  del<T = any>(url: string, key?: string): Promise<TestResponse<T>>;
}

/**
 * Requests through hapi's inject (no socket). Every response is checked against openapi.yaml's
 * schema for its operation and status, so a test that receives an off-contract response fails.
 */
export function httpClient(server: Server): HttpClient {
  const request: HttpClient['request'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let payload: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await server.inject({ method, url, headers, payload });
    const type = String(response.headers['content-type'] ?? '');
    const body = type.includes('application/json') && response.payload ? JSON.parse(response.payload) : response.payload;
    checkResponse(method, url, response.statusCode, body, type);
    return { status: response.statusCode, body, headers: response.headers as TestResponse['headers'] };
  };
  return {
    request,
    get: (url, key) => request('GET', url, { key }),
    post: (url, body, key, headers) => request('POST', url, { body, key, headers }),
    patch: (url, body, key) => request('PATCH', url, { body, key }),
    del: (url, key) => request('DELETE', url, { key }),
  };
}
