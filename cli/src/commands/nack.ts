import { Flags } from '@oclif/core';
import type { NackResult } from '@miniqueue/sdk';
import { arg } from '../lib/args.js';
import { formatSeconds, formatTime } from '../lib/format.js';
import { instanceFlag } from '../lib/holder.js';
import { BrokerCommand } from '../base/brokerCommand.js';

export default class Nack extends BrokerCommand<typeof Nack> {
  static summary = 'Reject a claimed message: back to its queue, or to the dead-letter queue.';

  static description = `By default the message is PENDING again (its retry count goes up by one; past the queue's max retries it goes DEAD instead). With --requeue=false it goes straight to the dead-letter queue. --delay keeps a requeued message out of reach for that many seconds (a back-off). Only the consumer holding the message may nack it.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90',
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 --delay 30',
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 --requeue=false',
    `<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 --requeue=false --reason 'no such customer'`,
  ];

  static args = {
    id: arg('Id of the message to reject.'),
  };

  static flags = {
    // A value rather than a switch, so that `--requeue=false` reads as it does in the API.
    requeue: Flags.string({ summary: 'true: back to the queue; false: to the dead-letter queue.', options: ['true', 'false'], default: 'true' }),
    delay: Flags.integer({ summary: 'Seconds (0-900) before a requeued message can be claimed again.', min: 0, max: 900 }),
    reason: Flags.string({ summary: 'Why (at most 500 characters): kept with the message and shown by dlq:list if it dies.' }),
    ...instanceFlag,
  };

  protected instanceId(): string | undefined {
    return this.flags.instance;
  }

  async run(): Promise<NackResult> {
    const requeue = this.flags.requeue === 'true';
    const { delay } = this.flags;
    const sent = Date.now();
    const result = await (await this.broker()).nack(this.args.id, { requeue, delaySeconds: delay, reason: this.flags.reason });
    this.log(`Rejected ${result.message_id}: ${result.status === 'DEAD' ? 'now DEAD, in the dead-letter queue' : pendingAgain(sent, delay)}.`);
    return result;
  }
}

/**
 * When a delayed message can be claimed again. The answer does not carry it, so it is counted from
 * when the request was sent: the broker's time may differ by the request's round trip.
 */
function pendingAgain(sent: number, delaySeconds: number | undefined): string {
  if (!delaySeconds) return 'PENDING again';
  return `PENDING again, claimable in ${formatSeconds(delaySeconds)} (at about ${formatTime(new Date(sent + delaySeconds * 1000))})`;
}
