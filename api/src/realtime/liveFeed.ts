import { ComposedService } from '../lifecycle/composedService.js';
import type { TopologyEvent } from './channels.js';
import type { Transition } from '../broker/changes.js';
import type { RealtimeContext } from './context.js';
import { MonitorFeed, type MonitorFeedLimits } from './monitorFeed.js';
import { monitorEventsOfTopology } from './monitorEvents.js';
import type { MonitorNotification } from './channels.js';
import { MonitorRelay } from './monitorRelay.js';

/**
 * The dashboards' live feed on this instance: this instance's transitions, gathered and shared
 * with the other instances (MonitorRelay), theirs as they arrive, and topics and queues created,
 * all sent to the /ws/monitor sockets held here (MonitorFeed).
 */
export class LiveFeed extends ComposedService {
  /** The /ws/monitor sockets held here. */
  readonly monitors: MonitorFeed;
  /** Transitions to the dashboards' live feed, coalesced, here and on the other instances. */
  readonly relay: MonitorRelay;

  constructor(
    private readonly context: RealtimeContext,
    log: (message: string, error?: unknown) => void,
    limits?: MonitorFeedLimits,
  ) {
    super('live-feed');
    this.monitors = new MonitorFeed(limits);
    this.relay = new MonitorRelay({
      pool: context.pool,
      sender: context.notifications,
      instanceId: context.instanceId,
      show: (events) => this.monitors.publish(events),
      log,
    });
  }

  protected parts() {
    return [this.monitors, this.relay];
  }

  protected listen(on: boolean): void {
    const { bus, changes } = this.context;
    const method = on ? 'on' : 'off';
    changes[method]('transitions', this.onTransitions);
    bus[method]('monitor', this.onMonitor)[method]('monitorPresence', this.onMonitorPresence)[method]('topology', this.onTopology);
  }

  private readonly onTransitions = (transitions: Transition[]) => this.relay.record(transitions);
  private readonly onMonitor = (notification: MonitorNotification) => this.relay.received(notification);
  private readonly onMonitorPresence = () => this.relay.presenceChanged();
  private readonly onTopology = (event: TopologyEvent) => this.monitors.publish(monitorEventsOfTopology(event, new Date().toISOString()));
}
