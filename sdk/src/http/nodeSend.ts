import { BufferedResponse, type ResponseHeaders } from './bufferedResponse.js';
import { AttemptTimedOut, NULL_BODY_STATUSES, type Send } from './send.js';

/*
 * Attempts over Node's own node:http / node:https, with keep-alive. The global fetch (undici)
 * costs a program about three times the CPU of node:http per small request (web streams, a
 * Request and a Response object, an AbortSignal each), and loading it costs a command-line tool
 * tens of milliseconds at start; for a client whose every call is one small JSON request, that
 * was most of its work. The SDK has no Node typings, so the part of node:http used is typed here.
 */

interface IncomingMessage {
  statusCode?: number;
  statusMessage?: string;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): this;
  on(event: 'end', listener: () => void): this;
  on(event: 'error' | 'aborted', listener: (error?: Error) => void): this;
}

interface ClientRequest {
  reusedSocket: boolean;
  on(event: 'error', listener: (error: Error & { code?: string }) => void): this;
  destroy(error?: Error): this;
  end(body?: string | Uint8Array): this;
}

interface RequestOptions {
  method: string;
  host: string;
  port: string;
  path: string;
  headers: Record<string, string>;
  agent: unknown;
}

interface HttpModule {
  Agent: new (options: { keepAlive: boolean }) => unknown;
  request(options: RequestOptions, onResponse: (response: IncomingMessage) => void): ClientRequest;
}

interface Modules {
  http: HttpModule;
  https: HttpModule;
  agents: { http: unknown; https: unknown };
  byteLength(text: string): number;
}

// Variables, so browser bundlers do not try to include Node's modules (the SDK runs there too).
const HTTP = 'node:http';
const HTTPS = 'node:https';
const BUFFER = 'node:buffer';

let loaded: Promise<Modules> | undefined;

function load(): Promise<Modules> {
  loaded ??= Promise.all([import(/* @vite-ignore */ HTTP), import(/* @vite-ignore */ HTTPS), import(/* @vite-ignore */ BUFFER)]).then(
    ([httpModule, httpsModule, bufferModule]) => {
      const http = (httpModule.default ?? httpModule) as HttpModule;
      const https = (httpsModule.default ?? httpsModule) as HttpModule;
      // One pool per process, as fetch has: idle sockets do not keep the process alive.
      const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
      const { Buffer } = bufferModule as { Buffer: { byteLength(text: string): number } };
      return { http, https, agents, byteLength: (text: string) => Buffer.byteLength(text) };
    },
  );
  return loaded;
}

/** Whether this is Node (or a runtime with its modules): there, requests go over node:http. */
export function isNode(): boolean {
  return typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';
}

class NodeHeaders implements ResponseHeaders {
  constructor(private readonly raw: IncomingMessage['headers']) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

function headersOf(given: RequestInit['headers']): Record<string, string> {
  if (given === undefined) return {};
  if (Array.isArray(given) || typeof (given as Headers).forEach === 'function') return Object.fromEntries(new Headers(given));
  return { ...(given as Record<string, string>) };
}

/** The body forms this sends itself; others (FormData, streams) go through fetch. */
export function nodeCanSend(init: RequestInit): boolean {
  const body = init.body;
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
}

export const nodeSend: Send = async (url, init, timeoutMs, signal) => {
  if (signal?.aborted) throw signal.reason;
  const modules = await load();
  const target = new URL(url);
  const body = (init.body ?? undefined) as string | Uint8Array | undefined;
  const headers = headersOf(init.headers);
  if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? modules.byteLength(body) : body.byteLength);
  const secure = target.protocol === 'https:';
  const options: RequestOptions = {
    method: init.method ?? 'GET',
    host: target.hostname.replace(/^\[|\]$/g, ''),
    port: target.port,
    path: `${target.pathname}${target.search}`,
    headers,
    agent: secure ? modules.agents.https : modules.agents.http,
  };
  const module = secure ? modules.https : modules.http;
  try {
    return await exchange(module, options, body, timeoutMs, signal);
  } catch (error) {
    // The server closed an idle keep-alive socket just as it was reused: the request never
    // reached it, so it is sent again on a fresh socket (the case Node's documentation names).
    if ((error as { reusedSocket?: boolean }).reusedSocket && (error as { code?: string }).code === 'ECONNRESET' && !signal?.aborted) {
      return exchange(module, options, body, timeoutMs, signal);
    }
    throw error;
  }
};

function exchange(
  module: HttpModule,
  options: RequestOptions,
  body: string | Uint8Array | undefined,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<BufferedResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: unknown, response?: BufferedResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (response) resolve(response);
      else reject(error);
    };
    const request = module.request(options, (response) => {
      const chunks: Uint8Array[] = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', (error) => finish(error ?? new Error('response failed')));
      response.on('aborted', () => finish(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })));
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const bytes = NULL_BODY_STATUSES.has(status) ? null : concat(chunks);
        finish(null, new BufferedResponse(status, response.statusMessage ?? '', new NodeHeaders(response.headers), bytes));
      });
    });
    const onAbort = () => {
      finish(signal?.reason);
      request.destroy();
    };
    const timer = setTimeout(() => {
      finish(new AttemptTimedOut(timeoutMs));
      request.destroy();
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => finish(Object.assign(error, { reusedSocket: request.reusedSocket })));
    request.end(body);
  });
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
