import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type VerifyClientCallbackAsync, type WebSocket } from 'ws';
import type { AppContext } from '../http/context.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import { ServiceGroup } from '../lifecycle/serviceGroup.js';
import type { Principal } from '../auth/principal.js';
import { hasScope } from '../auth/scopes.js';
import { isDatabaseUnavailable, isForeignKeyViolation } from '../db/errors.js';
import { name as nameSchema } from '../http/schemas.js';
import type { ReadyEvent, TopologyEvent, WsMemberEvent, WsPushEvent } from './bus.js';
import type { Transition } from './changes.js';
import { ConsumerSockets } from './consumerSockets.js';
import { Coordinator } from './coordinator.js';
import { Dispatcher, type Delivery } from './dispatcher.js';
import { checkOrigin, databaseUnavailable, Refusal, targetOf, tooManyRequests, type Endpoint } from './handshake.js';
import { principalOfHandshake } from './handshakeAuth.js';
import { Heartbeat } from './heartbeat.js';
import { MonitorFeed, type MonitorFeedLimits } from './monitorFeed.js';
import { monitorEventsOfTopology } from './monitorEvents.js';
import { MonitorRelay, type MonitorNotification } from './monitorRelay.js';
import { ReadyRelay } from './readyRelay.js';
import { SocketQuota } from './socketQuota.js';

export type RealtimeContext = Pick<
  AppContext,
  'config' | 'pool' | 'credentials' | 'bus' | 'changes' | 'notifications' | 'instanceId' | 'rateLimits'
>;

export interface RealtimeOptions {
  heartbeatIntervalMs?: number;
  electionIntervalMs?: number;
  monitorLimits?: MonitorFeedLimits;
  log?: (message: string, error?: unknown) => void;
}

/** Close codes: 1008 policy (credential ended), 1012 restart (state may be stale), 4404 queue gone. */
export const CLOSE_CREDENTIAL_ENDED = 1008;
export const CLOSE_RESTART = 1012;
export const CLOSE_QUEUE_DELETED = 4404;
const CLOSE_GOING_AWAY = 1001;

interface Admission {
  endpoint: Endpoint;
  principal: Principal;
  /** This socket's place in its credential's SocketQuota. */
  quotaKey: string;
  startedAt: number;
  queue?: string;
  socketId?: string;
}

/** How long a credential change is remembered for handshakes that were in flight when it came. */
const CHANGE_MEMORY_MS = 60_000;

/**
 * /ws/consume and /ws/monitor on this instance: admits sockets at the handshake, keeps them, and
 * ends them when their credential ends. Which consumer socket hears of which message is decided
 * by the Dispatcher, on whichever instance holds the dispatcher lock.
 */
export class RealtimeHub implements Service {
  readonly name = 'realtime-hub';
  private readonly life = new Lifecycle(this.name);
  private readonly services = new ServiceGroup();
  readonly instanceId: string;
  readonly consumers = new ConsumerSockets();
  readonly monitors: MonitorFeed;
  readonly heartbeat: Heartbeat;
  readonly coordinator: Coordinator;
  readonly dispatcher: Dispatcher;
  /** Transitions to the dashboards' live feed, coalesced, here and on the other instances. */
  readonly monitorRelay: MonitorRelay;
  /** Newly claimable messages to the dispatcher, wherever it runs. */
  readonly readyRelay: ReadyRelay;
  private readonly wss: WebSocketServer;
  private readonly admissions = new WeakMap<IncomingMessage, Admission>();
  private readonly held = new Map<WebSocket, Admission>();
  private readonly credentialChanges = new Map<string, number>();
  private readonly quota: SocketQuota;
  private readonly log: (message: string, error?: unknown) => void;

  constructor(
    private readonly context: RealtimeContext,
    private readonly listener: HttpServer,
    options: RealtimeOptions = {},
  ) {
    this.log = options.log ?? (() => undefined);
    this.instanceId = context.instanceId;
    this.monitors = new MonitorFeed(options.monitorLimits);
    this.heartbeat = new Heartbeat(options.heartbeatIntervalMs ?? 30_000);
    this.quota = new SocketQuota(context.config.wsMaxSocketsPerCredential);
    this.coordinator = new Coordinator(
      { ...context.pool.options, application_name: 'miniqueue-ws' },
      this.instanceId,
      this.log,
      options.electionIntervalMs,
    );
    this.dispatcher = new Dispatcher({
      pool: context.pool,
      instanceId: this.instanceId,
      deliverLocal: (queue, deliveries) => this.consumers.deliver(queue, deliveries),
      log: this.log,
    });
    const relayDeps = { pool: context.pool, sender: context.notifications, log: this.log };
    this.monitorRelay = new MonitorRelay({ ...relayDeps, instanceId: this.instanceId, show: (events) => this.monitors.publish(events) });
    this.readyRelay = new ReadyRelay({ ...relayDeps, localDispatcher: () => (this.dispatcher.active ? this.dispatcher : null) });
    const verifyClient: VerifyClientCallbackAsync = (info, done) => this.verify(info.req, done);
    // Clients have nothing to say beyond control frames; a small cap keeps them from buffering much.
    this.wss = new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: 4096, verifyClient });
  }

  /** Number of sockets of each kind held here. */
  counts(): { consumers: number; monitors: number } {
    return { consumers: this.consumers.count(), monitors: this.monitors.size };
  }

  /** The dispatcher before the coordinator, whose election activates it. */
  start(): Promise<void> {
    return this.life.start(async () => {
      this.listener.on('upgrade', this.onUpgrade);
      this.subscribe(true);
      this.coordinator.on('leadership', this.onLeadership);
      await this.services.startAll([this.dispatcher, this.coordinator, this.heartbeat, this.monitors, this.monitorRelay]);
      void this.readyRelay.reload();
    });
  }

  /** Refuses new handshakes, closes every socket (1001) and leaves the rotation. */
  stop(): Promise<void> {
    return this.life.stop(async () => {
      this.listener.off('upgrade', this.onUpgrade);
      // From here on, handshakes still in their checks are answered 503 instead of being completed.
      this.wss.close();
      for (const socket of [...this.held.keys()]) this.end(socket, CLOSE_GOING_AWAY, 'server shutting down');
      this.subscribe(false);
      this.coordinator.off('leadership', this.onLeadership);
      await this.services.stop();
    });
  }

  health() {
    return this.life.health();
  }

  private subscribe(on: boolean): void {
    const { bus, changes } = this.context;
    if (!on) {
      changes.off('transitions', this.onTransitions);
      bus.off('monitor', this.onMonitor).off('monitorPresence', this.onMonitorPresence);
      bus.off('topology', this.onTopology).off('auth', this.onAuth);
      bus.off('ready', this.onReady).off('wsMember', this.onMember).off('wsPush', this.onPush).off('reset', this.onReset);
      return;
    }
    changes.on('transitions', this.onTransitions);
    bus.on('monitor', this.onMonitor).on('monitorPresence', this.onMonitorPresence);
    bus.on('topology', this.onTopology).on('auth', this.onAuth);
    bus.on('ready', this.onReady).on('wsMember', this.onMember).on('wsPush', this.onPush).on('reset', this.onReset);
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    this.wss.handleUpgrade(request, socket, head, (ws, req) => this.accept(ws, req));
  };

  /** ws has checked the WebSocket headers; now who is it, and may they. */
  private verify(request: IncomingMessage, done: Parameters<VerifyClientCallbackAsync>[1]): void {
    this.admit(request).then(
      (admission) => {
        this.admissions.set(request, admission);
        done(true);
        // The upgrade completes synchronously inside done(); an admission still here was not used
        // (the peer left during the checks, or the server is closing).
        if (this.admissions.delete(request)) this.release(admission);
      },
      (error: unknown) => done(...this.refusalFor(error).reply()),
    );
  }

  private refusalFor(error: unknown): Refusal {
    if (error instanceof Refusal) return error;
    if (this.life.stopped) return new Refusal(503, 'The server is shutting down');
    this.log('WebSocket handshake failed', error);
    return new Refusal(500, 'Internal server error');
  }

  private async admit(request: IncomingMessage): Promise<Admission> {
    if (this.life.stopped) throw new Refusal(503, 'The server is shutting down');
    const { endpoint, params } = targetOf(request);
    checkOrigin(request, this.context.config.corsAllowedOrigins);
    const queue = endpoint === 'consume' ? queueOf(params) : undefined;
    const startedAt = Date.now();
    const principal = await this.authenticate(request, params);
    // Handshakes spend the credential's HTTP tokens: before the scope check, as requests do.
    const wait = this.context.rateLimits.takeCredential(principal);
    if (wait > 0) throw tooManyRequests('Too many requests with this credential', wait);
    const required = queue === undefined ? 'view' : `consume:${queue}`;
    if (!hasScope(principal, required)) throw new Refusal(403, `This needs the scope ${required} (or admin)`);
    const quotaKey = `${principal.kind}:${principal.credentialId}`;
    if (!this.quota.take(quotaKey)) {
      throw tooManyRequests(`This credential already holds ${this.quota.max} WebSockets on this instance; close one first`, 1);
    }
    const admission: Admission = { endpoint, principal, quotaKey, startedAt, queue };
    try {
      if (queue !== undefined) {
        admission.socketId = randomBytes(9).toString('base64url');
        await this.register(admission.socketId, queue);
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
    return admission;
  }

  /**
   * Who is it. An address whose handshakes keep failing on their credential is refused before the
   * credential is even looked up, so random keys or tickets cost no database work.
   */
  private async authenticate(request: IncomingMessage, params: URLSearchParams): Promise<Principal> {
    const address = request.socket.remoteAddress ?? '';
    const blocked = this.context.rateLimits.handshakeFailuresWait(address);
    if (blocked > 0) throw tooManyRequests('Too many failed WebSocket handshakes from this address', blocked);
    try {
      return await principalOfHandshake(request, params, this.context);
    } catch (error) {
      if (error instanceof Refusal && error.status === 401) this.context.rateLimits.noteFailedHandshake(address);
      throw error;
    }
  }

  /** Joins the rotation BEFORE the 101, so a publish committed after `open` already counts this socket. */
  private async register(socketId: string, queue: string): Promise<void> {
    try {
      await this.coordinator.register(socketId, queue);
      // Known here at once: this instance's next commit already tells the dispatcher about this queue.
      this.readyRelay.memberChanged({ op: 'INSERT', id: socketId, queue, instance: this.instanceId });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new Refusal(404, `No queue found with the name ${queue}`);
      if (isDatabaseUnavailable(error)) throw databaseUnavailable();
      throw error;
    }
  }

  private release(admission: Admission): void {
    this.quota.release(admission.quotaKey);
    if (admission.socketId) void this.coordinator.unregister(admission.socketId);
    else this.coordinator.releaseMonitor();
  }

  private accept(socket: WebSocket, request: IncomingMessage): void {
    const admission = this.admissions.get(request);
    this.admissions.delete(request);
    if (!admission) return void socket.terminate();
    this.held.set(socket, admission);
    socket.on('close', () => this.detach(socket));
    // Errors are followed by 'close'; without a listener they would be thrown.
    socket.on('error', () => undefined);
    this.heartbeat.track(socket);
    if (admission.socketId) this.consumers.add(admission.socketId, admission.queue as string, socket);
    else this.monitors.add(socket);
    const changedAt = this.credentialChanges.get(admission.principal.credentialId);
    if (changedAt !== undefined && changedAt >= admission.startedAt) {
      this.end(socket, CLOSE_CREDENTIAL_ENDED, 'credential revoked');
    }
  }

  /** Out of every structure at once, so nothing is sent to or chosen for a socket that is closing. */
  private detach(socket: WebSocket): void {
    const admission = this.held.get(socket);
    if (!admission) return;
    this.held.delete(socket);
    this.heartbeat.untrack(socket);
    this.monitors.remove(socket);
    if (admission.socketId) this.consumers.remove(admission.socketId);
    this.release(admission);
  }

  private end(socket: WebSocket, code: number, reason: string): void {
    this.detach(socket);
    socket.close(code, reason);
  }

  /** This instance's own commits: to the live feed, and (for claimable messages) to the dispatcher. */
  private readonly onTransitions = (transitions: Transition[]) => {
    this.monitorRelay.record(transitions);
    this.readyRelay.record(transitions);
  };

  private readonly onMonitor = (notification: MonitorNotification) => this.monitorRelay.received(notification);
  private readonly onMonitorPresence = () => this.monitorRelay.presenceChanged();

  private readonly onTopology = (event: TopologyEvent) => {
    this.monitors.publish(monitorEventsOfTopology(event, new Date().toISOString()));
    if (event.kind === 'queue' && event.op === 'DELETE') {
      for (const [socket, admission] of [...this.held]) {
        if (admission.queue === event.name) this.end(socket, CLOSE_QUEUE_DELETED, 'queue deleted');
      }
    }
  };

  /** A client was rotated, revoked or changed, or a session ended: its sockets end, here and everywhere. */
  private readonly onAuth = (event: unknown) => {
    const id = (event as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return;
    const now = Date.now();
    this.credentialChanges.set(id, now);
    for (const [changed, at] of this.credentialChanges) if (now - at > CHANGE_MEMORY_MS) this.credentialChanges.delete(changed);
    for (const [socket, admission] of [...this.held]) {
      if (admission.principal.credentialId === id) this.end(socket, CLOSE_CREDENTIAL_ENDED, 'credential revoked');
    }
  };

  private readonly onReady = (event: ReadyEvent) => this.dispatcher.onReady(event);
  private readonly onMember = (event: WsMemberEvent) => {
    this.readyRelay.memberChanged(event);
    this.dispatcher.onMember(event);
  };

  private readonly onPush = (event: WsPushEvent) => {
    if (event.instance !== this.instanceId || !Array.isArray(event.pairs)) return;
    this.consumers.deliver(event.queue, event.pairs as Delivery[]);
  };

  /**
   * The notification connection was re-established: a revocation may have been missed, so every
   * socket is asked to reconnect (and to authenticate again); the dispatcher reloads its view.
   */
  private readonly onReset = () => {
    for (const socket of [...this.held.keys()]) this.end(socket, CLOSE_RESTART, 'reconnect and authenticate again');
    void this.readyRelay.reload();
    if (this.coordinator.isLeader) void this.dispatcher.activate();
  };

  private readonly onLeadership = (leading: boolean) => {
    if (leading) void this.dispatcher.activate();
    else this.dispatcher.deactivate();
  };
}

function queueOf(params: URLSearchParams): string {
  const raw = params.get('queue');
  if (raw === null) throw new Refusal(400, 'Missing query parameter queue', [{ field: 'queue', message: 'is required' }]);
  const { value, error } = nameSchema.validate(raw);
  if (error) throw new Refusal(400, 'Invalid query parameter queue', [{ field: 'queue', message: error.message.replace(/^"value" /, '') }]);
  return value as string;
}
