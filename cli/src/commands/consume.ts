import { Flags } from '@oclif/core';
import { arg } from '../lib/args.js';
import type { Message, MiniQueue } from '@miniqueue/sdk';
import { plural } from '../lib/format.js';
import { onInterrupt } from '../lib/interrupt.js';
import { renderMessage } from '../lib/messageView.js';
import { consumeOverStream } from '../lib/streamConsume.js';
import { yellow } from '../lib/style.js';
import { transportFlag } from '../lib/transportFlag.js';
import { showWaiting, type Waiting } from '../lib/waiting.js';
import { BrokerCommand } from '../base/brokerCommand.js';

/** Most messages one receive request may claim. */
const MAX_PER_REQUEST = 100;
const FOLLOW_WAIT_SECONDS = 20;

export interface ConsumeResult {
  queue: string;
  /** How many of the messages were acknowledged. */
  acked: number;
  /** The messages, each with its status once the command is done with it: ACKED, or UNACKED (still claimed). */
  messages: Message[];
}

export default class Consume extends BrokerCommand<typeof Consume> {
  static summary = 'Claim messages from a queue, print them, and acknowledge them.';

  static description = `Each message is printed, then acknowledged (done for good). With --no-ack it stays claimed by you until its lease ends (the queue's ack timeout), then it is delivered again: a way to look at live messages without taking them. With --follow, messages are printed as they arrive until Ctrl-C; with --json they are then written one JSON object per line.

Messages come over the SDK's stream (/ws/v1/stream), pushed one at a time and acked by frame; without --follow the command stops once nothing more arrives for a moment (a quarter of a second after the last ack). --transport http claims with HTTP requests instead (up to 100 a request, one batch ack). --no-ack always uses HTTP: a stream hands back what it holds as soon as it closes, so a message would not stay claimed.`;

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
    transport: transportFlag,
  };

  /** --no-ack needs a claim that outlives the command, which only HTTP gives (a closed stream releases its claims). */
  protected transport(): 'stream' | 'http' {
    return this.flags.ack ? super.transport() : 'http';
  }

  async run(): Promise<ConsumeResult | undefined> {
    const broker = await this.broker();
    const { queue } = this.args;
    const { follow, ack } = this.flags;
    const interrupt = onInterrupt();
    const taken: Message[] = [];
    try {
      if (this.transport() === 'stream') await this.streamLoop(broker, queue, interrupt.signal, taken);
      else
        await this.claimLoop(broker, queue, interrupt.signal, async (batch) => {
          // A person sees each message before it is acked; JSON says what became of it, so it comes after.
          if (!this.jsonEnabled()) for (const message of batch) this.log(`${renderMessage(message)}\n`);
          const settled = ack ? await this.acknowledge(broker, batch) : batch;
          if (this.jsonEnabled() && follow) for (const message of settled) this.writeJsonLine(message);
          taken.push(...settled);
        });
    } finally {
      interrupt.dispose();
    }
    const acked = taken.filter((message) => message.status === 'ACKED').length;
    this.summarize(queue, taken.length, acked);
    if (follow && this.jsonEnabled()) return undefined; // already streamed, line by line
    return { queue, acked, messages: taken };
  }

  private async streamLoop(broker: MiniQueue, queue: string, signal: AbortSignal, taken: Message[]): Promise<void> {
    const { follow } = this.flags;
    const waiting = this.waiting(queue, this.flags.wait ?? 0);
    try {
      await consumeOverStream(broker, queue, {
        count: this.flags.count ?? (follow ? Infinity : 1),
        waitSeconds: this.flags.wait ?? 0,
        follow,
        signal,
        shown: (message) => {
          waiting?.done();
          if (!this.jsonEnabled()) this.log(`${renderMessage(message)}\n`);
        },
        settled: (message, acked, error) => {
          if (!acked) process.stderr.write(`${yellow('Warning:')} could not acknowledge ${message.message_id}: ${(error as Error).message}\n`);
          const settled = acked ? ackedView(message) : message;
          if (this.jsonEnabled() && follow) this.writeJsonLine(settled);
          taken.push(settled);
        },
      });
    } finally {
      waiting?.done();
    }
  }

  /**
   * The waiting state, while the command waits for the first message (--wait) or, with --follow,
   * for messages to come; none without a wait. With --json, stdout stays JSON and stderr quiet.
   */
  private waiting(queue: string, seconds: number): Waiting | undefined {
    if (this.jsonEnabled() || (seconds === 0 && !this.flags.follow)) return undefined;
    if (this.flags.follow) return showWaiting(`Waiting for messages in ${queue}`);
    return showWaiting(`Waiting for a message in ${queue}`, seconds);
  }

  private async claimLoop(broker: MiniQueue, queue: string, signal: AbortSignal, handle: (batch: Message[]) => Promise<void>) {
    const { follow } = this.flags;
    let remaining = this.flags.count ?? (follow ? Infinity : 1);
    let wait = this.flags.wait ?? (follow ? FOLLOW_WAIT_SECONDS : 0);
    let first = true;
    while (remaining > 0 && !signal.aborted) {
      let batch: Message[];
      // Only until the first answer: later requests take what is there, or (--follow) the messages show it is alive.
      const waiting = first ? this.waiting(queue, wait) : undefined;
      first = false;
      try {
        batch = await broker.receive(queue, { maxMessages: Math.min(MAX_PER_REQUEST, remaining), waitSeconds: wait, signal });
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      } finally {
        waiting?.done();
      }
      if (batch.length === 0 && !follow) return;
      // Claimed messages are handled even after Ctrl-C: they are ours until acked or their lease ends.
      if (batch.length > 0) await handle(batch);
      remaining -= batch.length;
      // Without --follow, only the first request waits; later ones take what is already there.
      if (!follow) wait = 0;
    }
  }

  /**
   * One request for the whole batch, after it was printed. A message that could not be acked (its
   * lease was lost, or it was purged meanwhile) is reported and keeps the status it was claimed
   * with: the broker redelivers or has dropped it. Returns the batch with each status as it is now.
   */
  private async acknowledge(broker: MiniQueue, batch: Message[]): Promise<Message[]> {
    const { acked, failed } = await broker.ackMany(batch.map((message) => message.message_id));
    for (const failure of failed) {
      process.stderr.write(`${yellow('Warning:')} could not acknowledge ${failure.message_id}: ${failure.message}\n`);
    }
    const done = new Set(acked);
    return batch.map((message) => (done.has(message.message_id) ? ackedView(message) : message));
  }

  private summarize(queue: string, count: number, acked: number): void {
    if (count === 0) return this.logToStderr(`No message to consume in ${queue}.`);
    const what = !this.flags.ack ? 'left claimed until the lease ends' : acked === count ? 'acknowledged' : `${acked} acknowledged`;
    this.logToStderr(`${plural(count, 'message')} from ${queue}, ${what}.`);
  }
}

/** An acked message has no lease any more; the broker lists it the same way. */
function ackedView(message: Message): Message {
  return { ...message, status: 'ACKED', lease_expires_at: null };
}
