import { Flags } from '@oclif/core';
import { setTimeout as sleep } from 'node:timers/promises';
import type WebSocket from 'ws';
import { EXIT, Failure } from '../lib/failure.js';
import { formatTime } from '../lib/format.js';
import { onInterrupt } from '../lib/interrupt.js';
import { connectMonitor, HandshakeRefused, monitorUrl, pump, type MonitorEvent } from '../lib/monitor.js';
import { dim, inStatusColor } from '../lib/style.js';
import { BrokerCommand } from '../base/brokerCommand.js';

/** The broker closes a socket with 1008 when its credential is revoked or its session ends. */
const CLOSE_CREDENTIAL_ENDED = 1008;
const MAX_BACKOFF_MS = 30_000;

export default class Tail extends BrokerCommand<typeof Tail> {
  static summary = 'Watch the broker live: every message transition as it happens, until Ctrl-C.';

  static description = `Prints the events of the broker's live monitor (/ws/monitor; needs the view scope): CREATED, PUBLISHED, CONSUMED, ACKED, NACKED, REDELIVERED, DEAD and REPLAYED, from every broker instance. Large bursts arrive as summaries, and EVENTS_DROPPED says when events were skipped to keep up. A lost connection is reopened. With --json, each event is one JSON object per line.`;

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --queue email-queue',
    `<%= config.bin %> <%= command.id %> --json | jq -c 'select(.eventType == "DEAD")'`,
  ];

  static flags = {
    queue: Flags.string({ char: 'q', summary: 'Only the events of this queue.' }),
  };

  async run(): Promise<void> {
    await this.broker(); // fails early, with the login hint, when there is no key
    const { url, apiKey } = await this.connection();
    const interrupt = onInterrupt();
    try {
      await this.watch(url, apiKey!, interrupt.signal);
    } finally {
      interrupt.dispose();
    }
  }

  private async watch(url: string, apiKey: string, signal: AbortSignal): Promise<void> {
    let failures = 0;
    let connectedOnce = false;
    while (!signal.aborted) {
      let socket: WebSocket;
      try {
        socket = await connectMonitor(url, apiKey);
      } catch (error) {
        // A refusal will not change by retrying, and a broker never reached is probably the wrong URL.
        if (error instanceof HandshakeRefused || !connectedOnce) throw error;
        failures += 1;
        await this.backoff(failures, signal);
        continue;
      }
      failures = 0;
      connectedOnce = true;
      this.notice(`Watching ${monitorUrl(url)} (Ctrl-C to stop)`);
      const closed = await pump(socket, signal, (event) => this.show(event));
      if (signal.aborted) return;
      if (closed.code === CLOSE_CREDENTIAL_ENDED) {
        throw new Failure('The broker closed the monitor: this credential was revoked or its session ended', 'Log in again with `miniqueue login`.', EXIT.auth);
      }
      this.notice(`Connection closed (${closed.code}${closed.reason ? `: ${closed.reason}` : ''}); reconnecting…`);
    }
  }

  private async backoff(failures: number, signal: AbortSignal): Promise<void> {
    const ceiling = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1));
    await sleep(ceiling / 2 + Math.random() * (ceiling / 2), undefined, { signal }).catch(() => undefined);
  }

  /** Connection news goes to stderr even with --json: it is for the person watching, never part of the stream. */
  private notice(text: string): void {
    process.stderr.write(`${dim(text)}\n`);
  }

  private show(event: MonitorEvent): void {
    const { queue } = this.flags;
    if (queue && event.queueName !== queue.toLowerCase() && event.eventType !== 'EVENTS_DROPPED') return;
    if (this.jsonEnabled()) return this.writeJsonLine(event);
    const type = inStatusColor(event.eventType, event.eventType.padEnd(11));
    this.log(`${dim(formatTime(event.timestamp))}  ${type}  ${event.detail}`);
  }
}
