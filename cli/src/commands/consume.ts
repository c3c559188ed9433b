import { Flags } from '@oclif/core';
import { arg } from '../lib/args.js';
import type { Message, MiniQueue } from '@miniqueue/sdk';
import { plural } from '../lib/format.js';
import { onInterrupt } from '../lib/interrupt.js';
import { renderMessage } from '../lib/messageView.js';
import { yellow } from '../lib/style.js';
import { BrokerCommand } from '../base/brokerCommand.js';

/** Most messages one receive request may claim. */
const MAX_PER_REQUEST = 100;
const FOLLOW_WAIT_SECONDS = 20;

export interface ConsumeResult {
  queue: string;
  /** Whether the messages were acknowledged after they were printed. */
  acked: boolean;
  /** The messages as claimed (status UNACKED at the time). */
  messages: Message[];
}

export default class Consume extends BrokerCommand<typeof Consume> {
  static summary = 'Claim messages from a queue, print them, and acknowledge them.';

  static description = `Each message is printed, then acknowledged (done for good). With --no-ack it stays claimed by you until its lease ends (the queue's ack timeout), then it is delivered again: a way to look at live messages without taking them. With --follow, messages are printed as they arrive until Ctrl-C; with --json they are then written one JSON object per line.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue',
    '<%= config.bin %> <%= command.id %> email-queue --count 10 --wait 5',
    '<%= config.bin %> <%= command.id %> email-queue --no-ack --json',
    '<%= config.bin %> <%= command.id %> email-queue --follow',
  ];

  static args = {
    queue: arg('Queue to consume from.'),
  };

  static flags = {
    count: Flags.integer({ char: 'n', summary: 'Stop after this many messages. Default: 1, or no limit with --follow.', min: 1 }),
    wait: Flags.integer({
      char: 'w',
      summary: `Wait up to this many seconds for a message (0-20). Default: 0, or ${FOLLOW_WAIT_SECONDS} with --follow.`,
      min: 0,
      max: 20,
    }),
    ack: Flags.boolean({ summary: 'Acknowledge each message after printing it (--no-ack: leave it to come back).', allowNo: true, default: true }),
    follow: Flags.boolean({ char: 'f', summary: 'Keep consuming as messages arrive, until Ctrl-C.' }),
  };

  async run(): Promise<ConsumeResult | undefined> {
    const broker = await this.broker();
    const { queue } = this.args;
    const { follow, ack } = this.flags;
    const interrupt = onInterrupt();
    const taken: Message[] = [];
    let acked = 0;
    try {
      await this.claimLoop(broker, queue, interrupt.signal, async (batch) => {
        for (const message of batch) this.show(message);
        taken.push(...batch);
        if (ack) acked += await this.acknowledge(broker, batch);
      });
    } finally {
      interrupt.dispose();
    }
    this.summarize(queue, taken.length, acked);
    if (follow && this.jsonEnabled()) return undefined; // already streamed, line by line
    return { queue, acked: ack, messages: taken };
  }

  private async claimLoop(broker: MiniQueue, queue: string, signal: AbortSignal, handle: (batch: Message[]) => Promise<void>) {
    const { follow } = this.flags;
    let remaining = this.flags.count ?? (follow ? Infinity : 1);
    let wait = this.flags.wait ?? (follow ? FOLLOW_WAIT_SECONDS : 0);
    while (remaining > 0 && !signal.aborted) {
      let batch: Message[];
      try {
        batch = await broker.receive(queue, { maxMessages: Math.min(MAX_PER_REQUEST, remaining), waitSeconds: wait, signal });
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      if (batch.length === 0 && !follow) return;
      // Claimed messages are handled even after Ctrl-C: they are ours until acked or their lease ends.
      if (batch.length > 0) await handle(batch);
      remaining -= batch.length;
      // Without --follow, only the first request waits; later ones take what is already there.
      if (!follow) wait = 0;
    }
  }

  private show(message: Message): void {
    if (!this.jsonEnabled()) this.log(`${renderMessage(message)}\n`);
    else if (this.flags.follow) this.writeJsonLine(message);
  }

  /**
   * One request for the whole batch, after it was printed. A message that could not be acked (its
   * lease was lost, or it was purged meanwhile) is reported and skipped: the broker redelivers or has dropped it.
   */
  private async acknowledge(broker: MiniQueue, batch: Message[]): Promise<number> {
    const { acked, failed } = await broker.ackMany(batch.map((message) => message.message_id));
    for (const failure of failed) {
      process.stderr.write(`${yellow('Warning:')} could not acknowledge ${failure.message_id}: ${failure.message}\n`);
    }
    return acked.length;
  }

  private summarize(queue: string, count: number, acked: number): void {
    if (count === 0) return this.logToStderr(`No message to consume in ${queue}.`);
    const what = !this.flags.ack ? 'left claimed until the lease ends' : acked === count ? 'acknowledged' : `${acked} acknowledged`;
    this.logToStderr(`${plural(count, 'message')} from ${queue}, ${what}.`);
  }
}
