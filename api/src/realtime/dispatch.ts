import { ComposedService } from '../lifecycle/composedService.js';
import type { ReadyEvent, WsMemberEvent, WsPushEvent, WsReadingEvent } from './channels.js';
import type { Transition } from '../broker/changes.js';
import type { ConsumerSockets } from './consumerSockets.js';
import { Coordinator } from './coordinator.js';
import { Dispatcher, type Delivery } from './dispatcher.js';
import type { RealtimeContext } from './context.js';
import { ReadingNews } from './readingNews.js';
import { ReadyRelay } from './readyRelay.js';

/**
 * Which consumer socket hears of which message, on this instance's side: the coordination session
 * (socket rows, the dispatcher election), the Dispatcher while this instance leads, the ReadyRelay
 * that tells the dispatcher, wherever it runs, of messages that became claimable, the delivery
 * of the dispatcher's choices to the sockets held here, and the news of sockets here that stopped
 * or resumed reading, for the dispatcher. See README.md beside this file.
 */
export class ConsumerDispatch extends ComposedService {
  readonly coordinator: Coordinator;
  readonly dispatcher: Dispatcher;
  /** Newly claimable messages to the dispatcher, wherever it runs. */
  readonly readyRelay: ReadyRelay;
  /** Sockets here that stopped or resumed reading, to the dispatcher, wherever it runs. */
  private readonly readingNews: ReadingNews;

  constructor(
    private readonly context: RealtimeContext,
    private readonly consumers: ConsumerSockets,
    log: (message: string, error?: unknown) => void,
    electionIntervalMs?: number,
  ) {
    super('consumer-dispatch');
    this.coordinator = new Coordinator({ ...context.pool.options, application_name: 'miniqueue-ws' }, context.instanceId, log, electionIntervalMs);
    this.dispatcher = new Dispatcher({
      pool: context.pool,
      instanceId: context.instanceId,
      deliverLocal: (queue, deliveries) => this.consumers.deliver(queue, deliveries),
      log,
    });
    this.readyRelay = new ReadyRelay({
      pool: context.pool,
      sender: context.notifications,
      localDispatcher: () => (this.dispatcher.active ? this.dispatcher : null),
      log,
    });
    this.readingNews = new ReadingNews(context.pool, log);
  }

  /** The dispatcher before the coordinator, whose election activates it. */
  protected parts() {
    return [this.readingNews, this.dispatcher, this.coordinator];
  }

  protected listen(on: boolean): void {
    const { bus, changes } = this.context;
    const method = on ? 'on' : 'off';
    changes[method]('transitions', this.onTransitions);
    bus[method]('ready', this.onReady)[method]('wsMember', this.onMember)[method]('wsPush', this.onPush)[method]('reset', this.onReset);
    bus[method]('wsReading', this.onReading);
    this.consumers[method]('reading', this.onLocalReading);
    this.coordinator[method]('leadership', this.onLeadership);
    if (on) void this.readyRelay.reload();
  }

  /** This instance's own commits: claimable messages in queues with sockets go to the dispatcher. */
  private readonly onTransitions = (transitions: Transition[]) => this.readyRelay.record(transitions);

  private readonly onReady = (event: ReadyEvent) => this.dispatcher.onReady(event);

  private readonly onMember = (event: WsMemberEvent) => {
    this.readyRelay.memberChanged(event);
    this.dispatcher.onMember(event);
  };

  /** The dispatcher, on another instance, chose sockets held here. */
  private readonly onPush = (event: WsPushEvent) => {
    if (event.instance !== this.context.instanceId || !Array.isArray(event.pairs)) return;
    this.consumers.deliver(event.queue, event.pairs as Delivery[]);
  };

  /** A socket, on any instance, stopped or resumed reading. */
  private readonly onReading = (event: WsReadingEvent) => this.dispatcher.onReading(event);

  /** A socket here stopped or resumed reading: the dispatcher hears it, even when it runs here, in the order it happened. */
  private readonly onLocalReading = (event: WsReadingEvent) => this.readingNews.tell(event);

  /** The notification connection was re-established: joins, leaves and messages may have been missed. */
  private readonly onReset = () => {
    void this.readyRelay.reload();
    if (this.coordinator.isLeader) void this.dispatcher.activate();
  };

  private readonly onLeadership = (leading: boolean) => {
    if (leading) void this.dispatcher.activate();
    else this.dispatcher.deactivate();
  };
}
