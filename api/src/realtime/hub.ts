import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type VerifyClientCallbackAsync, type WebSocket } from 'ws';
import { ComposedService } from '../lifecycle/composedService.js';
import { Admission, type AdmittedSocket } from './admission.js';
import type { TopologyEvent } from './channels.js';
import { ConsumerSockets } from './consumerSockets.js';
import { CredentialChanges } from './credentialChanges.js';
import { ConsumerDispatch } from './dispatch.js';
import { Heartbeat } from './heartbeat.js';
import { LiveFeed } from './liveFeed.js';
import type { MonitorFeedLimits } from './monitorFeed.js';
import { SocketRegistry } from './socketRegistry.js';
import { scopesAllow } from './socketScopes.js';
import { clientFindActiveScopes } from '../db/queries/client.js';
import { STREAM_SUBPROTOCOL } from '@miniqueue/sdk';
import type { Streams } from '../stream/streams.js';
import { createStreams, streamLimitsOf } from '../stream/wiring.js';
import type { RealtimeContext } from './context.js';

export interface RealtimeOptions {
  heartbeatIntervalMs?: number;
  electionIntervalMs?: number;
  monitorLimits?: MonitorFeedLimits;
  log?: (message: string, error?: unknown) => void;
}

const isStreamPath = (url: string | undefined) => new URL(url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') === '/ws/v1/stream';

/** Close codes: 1008 policy (credential ended), 1012 restart (state may be stale), 4404 queue gone. */
export const CLOSE_CREDENTIAL_ENDED = 1008;
export const CLOSE_RESTART = 1012;
export const CLOSE_QUEUE_DELETED = 4404;
const CLOSE_GOING_AWAY = 1001;

/**
 * /ws/consume and /ws/monitor on this instance, put together: handshakes go through Admission,
 * accepted sockets into the SocketRegistry, and this ends them when their credential or queue
 * ends. What they are sent comes from ConsumerDispatch (which socket hears of which message) and
 * LiveFeed (the dashboards' feed). How the instances share this is in README.md beside this file.
 */
export class RealtimeHub extends ComposedService {
  readonly instanceId: string;
  readonly consumers = new ConsumerSockets();
  readonly heartbeat: Heartbeat;
  readonly dispatch: ConsumerDispatch;
  readonly liveFeed: LiveFeed;
  /** /ws/v1/stream: publishing and consuming on one connection (../stream/). */
  readonly streams: Streams;
  private readonly admission: Admission;
  private readonly sockets: SocketRegistry;
  private readonly credentialChanges = new CredentialChanges();
  private readonly wss: WebSocketServer;
  private readonly streamWss: WebSocketServer;
  /** Admitted handshakes, between their checks and the completed upgrade. */
  private readonly admitted = new WeakMap<IncomingMessage, AdmittedSocket>();
  private readonly log: (message: string, error?: unknown) => void;

  constructor(
    private readonly context: RealtimeContext,
    private readonly listener: HttpServer,
    options: RealtimeOptions = {},
  ) {
    super('realtime-hub');
    const log = options.log ?? (() => undefined);
    this.log = log;
    this.instanceId = context.instanceId;
    this.heartbeat = new Heartbeat(options.heartbeatIntervalMs ?? 30_000);
    this.dispatch = new ConsumerDispatch(context, this.consumers, log, options.electionIntervalMs);
    this.liveFeed = new LiveFeed(context, log, options.monitorLimits);
    const coordinator = this.dispatch.coordinator;
    this.streams = createStreams(
      context,
      { feed: this.liveFeed.monitors, acquire: () => coordinator.acquireMonitor(), release: () => coordinator.releaseMonitor() },
      log,
    );
    this.admission = new Admission(context, this.dispatch.coordinator, this.dispatch.readyRelay, () => this.stopped, log);
    this.sockets = new SocketRegistry({
      heartbeat: this.heartbeat,
      consumers: this.consumers,
      monitors: this.liveFeed.monitors,
      streams: this.streams,
      release: (admitted) => this.admission.release(admitted),
    });
    const verifyClient: VerifyClientCallbackAsync = (info, done) => this.verify(info.req, done);
    // Clients have nothing to say beyond control frames; a small cap keeps them from buffering much.
    this.wss = new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: 4096, verifyClient });
    // A stream's messages may be as large as an HTTP publish body. One over that is answered
    // payload_too_large by the session; one over twice that is not even read (ws closes with 1009).
    this.streamWss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      maxPayload: 2 * streamLimitsOf(context.config).max_message_bytes,
      verifyClient,
      handleProtocols: (protocols) => (protocols.has(STREAM_SUBPROTOCOL) ? STREAM_SUBPROTOCOL : false),
    });
  }

  get coordinator() {
    return this.dispatch.coordinator;
  }

  get dispatcher() {
    return this.dispatch.dispatcher;
  }

  /** The dashboards' sockets here. */
  get monitors() {
    return this.liveFeed.monitors;
  }

  /** Number of sockets of each kind held here. */
  counts(): { consumers: number; monitors: number; streams: number } {
    return { consumers: this.consumers.count(), monitors: this.monitors.size, streams: this.streams.attachedCount };
  }

  /** The streams first, so they stop last: their stop waits until what they held is back in its queues. */
  protected parts() {
    return [this.streams, this.dispatch, this.heartbeat, this.liveFeed];
  }

  /**
   * Takes handshakes while on. Off (the stop): refuses new handshakes (those still in their checks
   * are answered 503 instead of being completed) and closes every socket (1001), before the parts stop.
   */
  protected listen(on: boolean): void {
    const method = on ? 'on' : 'off';
    this.listener[method]('upgrade', this.onUpgrade);
    this.context.bus[method]('topology', this.onTopology)[method]('auth', this.onAuth)[method]('reset', this.onReset);
    if (on) return;
    this.wss.close();
    this.streamWss.close();
    this.sockets.endAll(CLOSE_GOING_AWAY, 'server shutting down');
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const server = isStreamPath(request.url) ? this.streamWss : this.wss;
    server.handleUpgrade(request, socket, head, (ws, req) => this.accept(ws, req));
  };

  /** ws has checked the WebSocket headers; now who is it, and may they. */
  private verify(request: IncomingMessage, done: Parameters<VerifyClientCallbackAsync>[1]): void {
    this.admission.admit(request).then(
      (admitted) => {
        this.admitted.set(request, admitted);
        done(true);
        // The upgrade completes synchronously inside done(); an admission still here was not used
        // (the peer left during the checks, or the server is closing).
        if (this.admitted.delete(request)) this.admission.release(admitted);
      },
      (error: unknown) => done(...this.admission.refusalFor(error).reply()),
    );
  }

  private accept(socket: WebSocket, request: IncomingMessage): void {
    const admitted = this.admitted.get(request);
    this.admitted.delete(request);
    if (!admitted) return void socket.terminate();
    this.sockets.add(socket, admitted);
    if (this.credentialChanges.changedSince(admitted.principal.credentialId, admitted.startedAt)) {
      this.sockets.end(socket, CLOSE_CREDENTIAL_ENDED, 'credential revoked');
    }
  }

  private readonly onTopology = (event: TopologyEvent) => {
    if (event.kind !== 'queue' || event.op !== 'DELETE') return;
    this.streams.queueDeleted(event.name);
    this.sockets.endWhere((admitted) => admitted.queue === event.name, CLOSE_QUEUE_DELETED, 'queue deleted');
  };

  /**
   * A client was rotated or revoked, or a session ended: its sockets end, here and everywhere. Only
   * its scopes changed: those of its sockets the new scopes do not cover end. Either way a handshake
   * in flight since before the change ends when it completes (credentialChanges), as it was checked
   * against what the credential was.
   */
  private readonly onAuth = (event: unknown) => {
    const { id, change } = (event ?? {}) as { id?: unknown; change?: unknown };
    if (typeof id !== 'string') return;
    this.credentialChanges.note(id);
    if (change === 'scopes') return void this.endNoLongerAllowed(id);
    this.sockets.endWhere((admitted) => admitted.principal.credentialId === id, CLOSE_CREDENTIAL_ENDED, 'credential revoked');
    this.streams.credentialEnded(id);
  };

  /** Reads the client's scopes as they are now and ends its sockets they do not allow (all, if it is gone). */
  private async endNoLongerAllowed(id: string): Promise<void> {
    const ofClient = (admitted: AdmittedSocket) => admitted.principal.credentialId === id;
    let scopes: string[] | null;
    try {
      scopes = await clientFindActiveScopes(this.context.pool, id);
    } catch (error) {
      // Not knowing what the client may do now, none of its sockets may stay: they reconnect and are checked again.
      this.log('Could not read changed client scopes; closing its WebSockets', error);
      return this.sockets.endWhere(ofClient, CLOSE_RESTART, 'reconnect and authenticate again');
    }
    if (scopes === null) {
      this.sockets.endWhere(ofClient, CLOSE_CREDENTIAL_ENDED, 'credential revoked');
      return this.streams.credentialEnded(id);
    }
    const allowed = scopes;
    // A stream stays open: its frames are checked against the new scopes, and its subscriptions they do not allow end.
    this.streams.rescope(id, allowed);
    this.sockets.endWhere((admitted) => ofClient(admitted) && !admitted.stream && !scopesAllow(allowed, admitted), CLOSE_CREDENTIAL_ENDED, 'scope removed');
  }

  /**
   * The notification connection was re-established: a revocation may have been missed, so every
   * socket is asked to reconnect (and to authenticate again). (ConsumerDispatch reloads its view.)
   */
  private readonly onReset = () => this.sockets.endAll(CLOSE_RESTART, 'reconnect and authenticate again');
}
