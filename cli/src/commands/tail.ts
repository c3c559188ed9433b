import { Flags } from '@oclif/core';
import type { Monitor, MonitorEvent } from '@miniqueue/sdk';
import { EXIT, Failure } from '../lib/failure.js';
import { formatTime } from '../lib/format.js';
import { onInterrupt } from '../lib/interrupt.js';
import { isBrokerError } from '../lib/brokerErrors.js';
import { dim, inStatusColor } from '../lib/style.js';
import { tailEventOf } from '../lib/tailEvent.js';
import { transportFlag } from '../lib/transportFlag.js';
import { BrokerCommand } from '../base/brokerCommand.js';

export default class Tail extends BrokerCommand<typeof Tail> {
  static summary = 'Watch the broker live: every message transition as it happens, until Ctrl-C.';

  static description = `Prints the events of the broker's live monitor, watched on the broker stream (/ws/v1/stream; /ws/monitor where streams do not work, or with --transport http) and needing the view scope: CREATED, PUBLISHED, CONSUMED, ACKED, NACKED, REDELIVERED, DEAD and REPLAYED, from every broker instance. Large bursts arrive as summaries, and EVENTS_DROPPED says when events were skipped to keep up. A lost connection is reopened. With --json, each event is one JSON object per line: eventType, queueName, messageId (null for a summary), reason (lease_expired, requeued, rejected, replayed, or null), detail, count and timestamp.`;

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --queue email-queue',
    `<%= config.bin %> <%= command.id %> --json | jq -c 'select(.eventType == "DEAD")'`,
  ];

  static flags = {
    queue: Flags.string({ char: 'q', summary: 'Only the events of this queue.' }),
    transport: transportFlag,
  };

  async run(): Promise<void> {
    const monitor = (await this.broker()).monitor({ queue: this.flags.queue });
    const interrupt = onInterrupt();
    try {
      await this.watch(monitor, interrupt.signal);
    } finally {
      interrupt.dispose();
      await monitor.stop();
    }
  }

  /** Resolves on Ctrl-C; rejects when reconnecting cannot help. */
  private watch(monitor: Monitor, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      let connectedOnce = false;
      signal.addEventListener('abort', () => resolve(), { once: true });
      monitor.on('event', (event) => this.show(event));
      monitor.on('status', (status) => {
        if (status !== 'open') return;
        connectedOnce = true;
        this.notice(`Watching ${monitor.url} (Ctrl-C to stop)`);
      });
      monitor.on('error', (error) => {
        // A refusal will not change by retrying, and a broker never reached is probably the wrong URL.
        if ((isBrokerError(error) && error.status > 0) || !connectedOnce) reject(error);
      });
      monitor.on('close', ({ code, reason, credentialEnded }) => {
        if (credentialEnded) {
          return reject(
            new Failure('The broker closed the monitor: this credential was revoked or its session ended', 'Log in again with `miniqueue login`.', EXIT.auth),
          );
        }
        this.notice(`Connection closed (${code}${reason ? `: ${reason}` : ''}); reconnecting…`);
      });
      monitor.start();
    });
  }

  /** Connection news goes to stderr even with --json: it is for the person watching, never part of the stream. */
  private notice(text: string): void {
    process.stderr.write(`${dim(text)}\n`);
  }

  private show(event: MonitorEvent): void {
    if (this.jsonEnabled()) return this.writeJsonLine(tailEventOf(event));
    const type = inStatusColor(event.eventType, event.eventType.padEnd(11));
    this.log(`${dim(formatTime(event.timestamp))}  ${type}  ${event.detail}`);
  }
}
