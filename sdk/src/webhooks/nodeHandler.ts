import { parsePushedMessage, type PushedMessage } from './message.js';
import { PushSignatureError, SIGNATURE_HEADER, verifyPushSignature, type VerifyPushOptions } from './signature.js';

export interface PushHandlerOptions extends VerifyPushOptions {
  /** Largest body read, in bytes (default 1 MiB); a larger one is answered 413. */
  maxBodyBytes?: number;
}

/**
 * The parts of Node's IncomingMessage and ServerResponse used here (said structurally, so the SDK
 * needs no Node types). `body` is what Express leaves when a body parser ran first: keep it raw
 * with `express.raw()`.
 */
export interface NodeRequest extends AsyncIterable<Uint8Array> {
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}
export interface NodeResponse {
  writeHead(status: number, headers?: Record<string, string>): NodeResponse;
  end(body?: string): unknown;
}
type MaybeParsed = NodeRequest;

async function rawBody(request: MaybeParsed, limit: number): Promise<Uint8Array | null> {
  if (request.body instanceof Uint8Array) return request.body;
  if (typeof request.body === 'string') return new TextEncoder().encode(request.body);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

/**
 * A request handler for Node's http server and Express (`app.post('/hook', express.raw({ type:
 * 'application/json' }), pushHandler(…))`): reads the raw body, verifies the signature (401 when it
 * does not verify), then runs `onMessage`. Resolving answers 204, which acks the message; throwing
 * answers 500, which makes the broker retry it later.
 */
export function pushHandler(
  options: PushHandlerOptions,
  onMessage: (message: PushedMessage) => unknown,
): (request: NodeRequest, response: NodeResponse) => Promise<void> {
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  return async (request, response) => {
    const body = await rawBody(request, limit).catch(() => undefined);
    if (body === undefined) return; // the connection broke while the body was read
    if (body === null) {
      response.writeHead(413).end();
      return;
    }
    try {
      await verifyPushSignature(body, request.headers[SIGNATURE_HEADER], options);
    } catch (error) {
      // Not verified is 401; anything else (no usable secret configured) is this side's fault: 500.
      if (error instanceof PushSignatureError) response.writeHead(401, { 'content-type': 'text/plain' }).end(error.message);
      else response.writeHead(500).end();
      return;
    }
    try {
      await onMessage(parsePushedMessage(body));
    } catch {
      response.writeHead(500).end();
      return;
    }
    response.writeHead(204).end();
  };
}
