import { Flags } from '@oclif/core';
import { arg, optionalArg } from '../lib/args.js';
import type { BatchMessage, MiniQueue, PublishResult } from '@miniqueue/sdk';
import { EXIT, Failure } from '../lib/failure.js';
import { plural } from '../lib/format.js';
import { parseHeaders } from '../lib/headers.js';
import { batchesOf, countJsonLines, openLines, type Line } from '../lib/jsonLines.js';
import { progressBar } from '../lib/progress.js';
import { interactive, readStdin } from '../lib/prompt.js';
import { yellow } from '../lib/style.js';
import { BrokerCommand } from '../base/brokerCommand.js';
import { transportFlag } from '../lib/transportFlag.js';

/** The broker's limit for one batch. */
const BATCH_SIZE = 500;

export interface FilePublishResult {
  topic: string;
  /** Messages newly stored (each once, in every bound queue). */
  published: number;
  /** Messages the broker already had under the same idempotency key. */
  duplicates: number;
  queues: string[];
  /** Copies refused per queue (full, overflow reject_copy; the other queues got theirs); absent when none was. */
  refused_copies?: Record<string, number>;
}

interface Common {
  headers?: Record<string, string>;
  delaySeconds?: number;
  expiresInSeconds?: number;
  priority?: number;
  orderingKey?: string;
  groupKey?: string;
}

export default class Publish extends BrokerCommand<typeof Publish> {
  static summary = 'Publish a message to a topic, or a JSON-lines file of messages.';

  static description = `The payload is the argument, else standard input (all of it, one message). With --file, every non-blank line is one message: all lines are checked to be JSON first, then they are sent in groups of ${BATCH_SIZE} with a progress bar: over the stream (the default), each line is its own pipelined publish, confirmed one by one; with --transport http, each group is one batch request, all or nothing. Every message is stored once even when a request is retried. With --idempotency-key, a single publish is stored at most once per key; with --file, line N gets the key KEY:N, so running the same file again (say after a failure halfway) stores only what is missing. With --ordering-key, each queue delivers the messages of that key one at a time, in publish order (with --file: in line order). With --expires-in, a message not delivered within that many seconds is never delivered: each queue dead-letters it (TTL_EXPIRED) or drops it, as its --on-expiry says. With --priority, queues created with --max-priority deliver it before messages of lower priority; other queues ignore it. With --group-key, queues created with --fairness by_key share their deliveries out between group keys in turn (without it, the ordering key is the group); other queues ignore it.`;

  static examples = [
    `<%= config.bin %> <%= command.id %> order.placed '{"orderId":42}'`,
    `echo '{"orderId":43}' | <%= config.bin %> <%= command.id %> order.placed --header content-type=application/json`,
    `<%= config.bin %> <%= command.id %> order.placed '{"orderId":44}' --idempotency-key order-44 --delay 60`,
    `<%= config.bin %> <%= command.id %> order.placed '{"orderId":45,"status":"paid"}' --ordering-key order-45`,
    `<%= config.bin %> <%= command.id %> quote.requested '{"quoteId":7}' --expires-in 30`,
    `<%= config.bin %> <%= command.id %> order.placed '{"orderId":46}' --priority 8`,
    `<%= config.bin %> <%= command.id %> report.requested '{"reportId":9}' --group-key tenant-17`,
    '<%= config.bin %> <%= command.id %> order.placed --file orders.jsonl --idempotency-key import-2026-11-29',
  ];

  static args = {
    topic: arg('Topic to publish to.'),
    payload: optionalArg('The message body. Default: standard input.'),
  };

  static flags = {
    file: Flags.string({ char: 'f', summary: 'Publish each line of this JSON-lines file as a message ("-" reads lines from standard input).' }),
    header: Flags.string({ char: 'H', summary: 'A header, name=value; repeat for several.', multiple: true, multipleNonGreedy: true }),
    'idempotency-key': Flags.string({ char: 'k', summary: 'Store the message at most once for this key (with --file: KEY:<line number>).' }),
    delay: Flags.integer({ summary: 'Seconds before the message can be consumed (0-900).', min: 0, max: 900 }),
    'expires-in': Flags.integer({
      summary: "Seconds after the publish when the message expires, undelivered (1-1209600); a queue's own TTL may be earlier.",
      min: 1,
      max: 1_209_600,
    }),
    priority: Flags.integer({
      summary: 'Priority, 0-9 (default 0): queues created with --max-priority deliver higher priorities first.',
      min: 0,
      max: 9,
    }),
    'ordering-key': Flags.string({ summary: 'Deliver messages of this key one at a time, in publish order, in each queue.' }),
    'group-key': Flags.string({
      summary: 'The group (a tenant, say; 1-200 characters) that queues created with --fairness by_key share deliveries out by. Default: the ordering key.',
    }),
    progress: Flags.boolean({ summary: 'Show a progress bar for --file. Default: when stderr is a terminal.', allowNo: true }),
    transport: transportFlag,
  };

  async run(): Promise<PublishResult | FilePublishResult> {
    const { topic, payload } = this.args;
    const { file } = this.flags;
    if (file !== undefined && payload !== undefined) throw new Failure('Give a payload or --file, not both', null, EXIT.usage);
    const common: Common = {
      headers: parseHeaders(this.flags.header),
      delaySeconds: this.flags.delay,
      expiresInSeconds: this.flags['expires-in'],
      priority: this.flags.priority,
      orderingKey: this.flags['ordering-key'],
      groupKey: this.flags['group-key'],
    };
    if (file !== undefined) return this.publishFile(topic, file, common);
    return this.publishOne(topic, payload ?? (await this.payloadFromStdin()), common);
  }

  private async payloadFromStdin(): Promise<string> {
    if (interactive()) throw new Failure('No payload given', 'Pass it as an argument, on standard input, or use --file.', EXIT.usage);
    // A shell's `echo` adds one newline that is not part of the message.
    return (await readStdin()).replace(/\r?\n$/, '');
  }

  private async publishOne(topic: string, payload: string, common: Common): Promise<PublishResult> {
    const broker = await this.broker();
    const result = await broker.publish(topic, payload, { ...common, idempotencyKey: this.flags['idempotency-key'] });
    if (result.duplicate) this.log(`Already published under this idempotency key: ${result.message_ids.join(', ')}`);
    else if (result.queues.length === 0) this.warnNoQueues(topic);
    else this.log(`Published to ${topic}: ${result.queues.map((queue, i) => `${queue} ${result.message_ids[i]}`).join(', ')}`);
    this.warnRefused(result);
    return result;
  }

  private async publishFile(topic: string, file: string, common: Common): Promise<FilePublishResult> {
    const broker = await this.broker();
    const source = await openLines(file);
    const total = await countJsonLines(source, file === '-' ? 'standard input' : file);
    const bar = await progressBar(total, this.flags.progress ?? (Boolean(process.stderr.isTTY) && !this.jsonEnabled()));
    const outcome: FilePublishResult = { topic, published: 0, duplicates: 0, queues: [] };
    try {
      for await (const batch of batchesOf(source, BATCH_SIZE)) {
        await this.publishBatch(broker, topic, batch, common, outcome);
        bar.advance(batch.length);
      }
    } catch (error) {
      bar.stop();
      process.stderr.write(`Stopped after ${outcome.published + outcome.duplicates} of ${plural(total, 'message')}.\n`);
      throw error;
    }
    bar.stop();
    if (outcome.queues.length === 0 && total > 0) this.warnNoQueues(topic);
    const skipped = outcome.duplicates > 0 ? ` (${plural(outcome.duplicates, 'duplicate')} skipped)` : '';
    this.log(`Published ${plural(outcome.published, 'message')} to ${topic}${skipped}; queues: ${outcome.queues.join(', ') || 'none'}.`);
    for (const [queue, count] of Object.entries(outcome.refused_copies ?? {})) {
      process.stderr.write(
        `${yellow('Warning:')} queue ${queue} was full and refused ${plural(count, 'copy', 'copies')} (overflow reject_copy); the other queues got theirs.\n`,
      );
    }
    return outcome;
  }

  private async publishBatch(broker: MiniQueue, topic: string, lines: Line[], common: Common, outcome: FilePublishResult): Promise<void> {
    const key = this.flags['idempotency-key'];
    const messages: BatchMessage[] = lines.map((line) => ({
      payload: line.text,
      ...common,
      idempotencyKey: key === undefined ? undefined : `${key}:${line.number}`,
    }));
    const results = this.flags.transport === 'http' ? (await broker.publishBatch(topic, messages)).results : await this.publishEach(broker, topic, messages);
    for (const result of results) {
      if (result.duplicate) outcome.duplicates += 1;
      else outcome.published += 1;
      for (const queue of result.queues) if (!outcome.queues.includes(queue)) outcome.queues.push(queue);
      for (const { queue } of result.refused ?? []) {
        outcome.refused_copies ??= {};
        outcome.refused_copies[queue] = (outcome.refused_copies[queue] ?? 0) + 1;
      }
    }
  }

  /** One pipelined publish per line; the first refusal ends the file, after the others of its group settled. */
  private async publishEach(broker: MiniQueue, topic: string, messages: BatchMessage[]): Promise<PublishResult[]> {
    const settled = await Promise.allSettled(messages.map(({ payload, ...options }) => broker.publish(topic, payload, options)));
    const refused = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (refused) throw refused.reason;
    return settled.map((outcome) => (outcome as PromiseFulfilledResult<PublishResult>).value);
  }

  private warnNoQueues(topic: string): void {
    process.stderr.write(`${yellow('Warning:')} no queue is bound to ${topic}, so nothing was stored. Bind one with queues:create --topic ${topic}.\n`);
  }

  /** A full reject_copy queue refused its copy: the publish succeeded, but not everywhere. */
  private warnRefused(result: PublishResult): void {
    for (const refused of result.refused ?? []) process.stderr.write(`${yellow('Warning:')} ${refused.message}\n`);
  }
}
