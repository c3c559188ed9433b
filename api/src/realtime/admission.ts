import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Principal } from '../auth/principal.js';
import { hasScope } from '../auth/scopes.js';
import { isDatabaseUnavailable, isForeignKeyViolation } from '../db/errors.js';
import { name as nameSchema } from '../broker/names.js';
import type { Coordinator } from './coordinator.js';
import { checkOrigin, databaseUnavailable, Refusal, targetOf, tooManyRequests, type Endpoint } from './handshake.js';
import { principalOfHandshake } from './handshakeAuth.js';
import type { RealtimeContext } from './context.js';
import type { ReadyRelay } from './readyRelay.js';
import { SocketQuota } from './socketQuota.js';
import { scopeNeededFor } from './socketScopes.js';
import { streamRequestOf } from '../stream/handshake.js';
import type { StreamRequest } from '../stream/streams.js';

/** What a handshake was admitted as; it holds a place in the quota (and in a rotation, or a monitor presence). */
export interface AdmittedSocket {
  endpoint: Endpoint;
  principal: Principal;
  /** This socket's place in its credential's SocketQuota. */
  quotaKey: string;
  startedAt: number;
  queue?: string;
  socketId?: string;
  /** A stream's: who holds its leases, and the stream it resumes. */
  stream?: StreamRequest;
}

/**
 * The checks of a WebSocket handshake, in the order requests meet them: origin, credential (an
 * address that keeps failing is refused first), rate limit, scope, the credential's socket quota;
 * then the socket's place is recorded in the database BEFORE the 101, so that no commit after the
 * client's `open` goes unnotified. Each refusal is the contract's status and body.
 */
export class Admission {
  private readonly quota: SocketQuota;

  constructor(
    private readonly context: RealtimeContext,
    private readonly coordinator: Coordinator,
    private readonly readyRelay: ReadyRelay,
    private readonly closing: () => boolean,
    private readonly log: (message: string, error?: unknown) => void,
  ) {
    this.quota = new SocketQuota(context.config.wsMaxSocketsPerCredential);
  }

  async admit(request: IncomingMessage): Promise<AdmittedSocket> {
    if (this.closing()) throw new Refusal(503, 'The server is shutting down', null, {}, 'shutting_down');
    const { endpoint, params } = targetOf(request);
    checkOrigin(request, this.context.config.corsAllowedOrigins);
    const queue = endpoint === 'consume' ? queueOf(params) : undefined;
    const toStream = endpoint === 'stream' ? streamRequestOf(request, params) : undefined;
    const startedAt = Date.now();
    const principal = await this.authenticate(request, params);
    // Handshakes spend the credential's HTTP tokens: before the scope check, as requests do.
    const wait = this.context.rateLimits.takeCredential(principal);
    if (wait > 0) throw tooManyRequests('Too many requests with this credential', wait);
    // A stream needs no scope to open: each of its frames is checked as its HTTP request would be.
    const required = toStream ? undefined : scopeNeededFor({ queue });
    if (required && !hasScope(principal, required)) throw new Refusal(403, `This needs the scope ${required} (or admin)`, null, {}, 'scope_required', required);
    const stream = toStream?.(principal);
    const quotaKey = `${principal.kind}:${principal.credentialId}`;
    if (!this.quota.take(quotaKey)) {
      throw tooManyRequests(`This credential already holds ${this.quota.max} WebSockets on this instance; close one first`, 1);
    }
    const admitted: AdmittedSocket = { endpoint, principal, quotaKey, startedAt, queue };
    if (stream) return { ...admitted, stream };
    try {
      if (queue !== undefined) {
        admitted.socketId = randomBytes(9).toString('base64url');
        await this.register(admitted.socketId, queue);
      } else {
        // Recorded BEFORE the 101, so no transition committed after `open` goes unnotified.
        await this.coordinator.acquireMonitor().catch((error: unknown) => {
          this.coordinator.releaseMonitor();
          throw isDatabaseUnavailable(error) ? databaseUnavailable() : error;
        });
      }
    } catch (error) {
      this.quota.release(quotaKey);
      throw error;
    }
    return admitted;
  }

  /** Gives back what admit() took: when the socket closes, or when its handshake did not complete. */
  release(admitted: AdmittedSocket): void {
    this.quota.release(admitted.quotaKey);
    if (admitted.stream) return;
    if (admitted.socketId) void this.coordinator.unregister(admitted.socketId);
    else this.coordinator.releaseMonitor();
  }

  /** The answer to a handshake that failed: its refusal, or 503 while closing, or 500. */
  refusalFor(error: unknown): Refusal {
    if (error instanceof Refusal) return error;
    if (this.closing()) return new Refusal(503, 'The server is shutting down', null, {}, 'shutting_down');
    this.log('WebSocket handshake failed', error);
    return new Refusal(500, 'Internal server error');
  }

  /**
   * Who is it. An address whose handshakes keep failing on their credential is refused before the
   * credential is even looked up, so random keys or tickets cost no database work. The failure is
   * reserved before the lookup and given back unless the credential was refused (401), so that
   * concurrent handshakes are counted while they are in flight, not after.
   */
  private async authenticate(request: IncomingMessage, params: URLSearchParams): Promise<Principal> {
    const address = request.socket.remoteAddress ?? '';
    const blocked = this.context.rateLimits.reserveFailedHandshake(address);
    if (blocked > 0) throw tooManyRequests('Too many failed WebSocket handshakes from this address', blocked);
    try {
      const principal = await principalOfHandshake(request, params, this.context);
      this.context.rateLimits.handshakeNotFailed(address);
      return principal;
    } catch (error) {
      if (!(error instanceof Refusal && error.status === 401)) this.context.rateLimits.handshakeNotFailed(address);
      throw error;
    }
  }

  /** Joins the rotation BEFORE the 101, so a publish committed after `open` already counts this socket. */
  private async register(socketId: string, queue: string): Promise<void> {
    try {
      await this.coordinator.register(socketId, queue);
      // Known here at once: this instance's next commit already tells the dispatcher about this queue.
      this.readyRelay.memberChanged({ op: 'INSERT', id: socketId, queue, instance: this.context.instanceId });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new Refusal(404, `No queue found with the name ${queue}`, null, {}, 'queue_not_found');
      if (isDatabaseUnavailable(error)) throw databaseUnavailable();
      throw error;
    }
  }
}

function queueOf(params: URLSearchParams): string {
  const raw = params.get('queue');
  if (raw === null) throw new Refusal(400, 'Missing query parameter queue', [{ field: 'queue', message: 'is required' }]);
  const { value, error } = nameSchema.validate(raw);
  if (error) throw new Refusal(400, 'Invalid query parameter queue', [{ field: 'queue', message: error.message.replace(/^"value" /, '') }]);
  return value as string;
}
