import type { IncomingMessage } from 'node:http';
// The one version of the stream protocol; a client names it as the WebSocket subprotocol.
import { STREAM_SUBPROTOCOL } from '@miniqueue/sdk';
import type { Principal } from '../auth/principal.js';
import { ValidationError } from '../errors.js';
import { consumerIdentity } from '../http/access.js';
import { Refusal } from '../realtime/handshake.js';
import type { StreamRequest } from './streams.js';

const RESUME_TOKEN = /^[A-Za-z0-9_-]{32}$/;

const offered = (request: IncomingMessage): string[] => (request.headers['sec-websocket-protocol'] ?? '').split(',').map((protocol) => protocol.trim());

/**
 * The stream-specific checks of a handshake, made before its credential is looked up: the
 * subprotocol, the `instance` (as the MiniQueue-Instance header) and the `resume` token's form.
 * Answers what the stream is, once the principal is known.
 */
export function streamRequestOf(request: IncomingMessage, params: URLSearchParams): (principal: Principal) => StreamRequest {
  if (!offered(request).includes(STREAM_SUBPROTOCOL)) {
    throw new Refusal(400, `Streams speak the WebSocket subprotocol ${STREAM_SUBPROTOCOL}; offer it in Sec-WebSocket-Protocol`, [
      { field: 'Sec-WebSocket-Protocol', message: `must include ${STREAM_SUBPROTOCOL}` },
    ]);
  }
  const instance = params.get('instance') ?? undefined;
  const resume = params.get('resume') ?? undefined;
  if (resume !== undefined && !RESUME_TOKEN.test(resume)) {
    throw new Refusal(400, 'Invalid query parameter resume', [{ field: 'resume', message: 'must be the resume_token of an earlier stream' }]);
  }
  return (principal) => {
    try {
      return { principal, identity: consumerIdentity(principal, instance, 'instance'), resume };
    } catch (error) {
      if (error instanceof ValidationError) throw new Refusal(400, error.message, error.errors);
      throw error;
    }
  };
}
