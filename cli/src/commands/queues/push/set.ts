import { Flags } from '@oclif/core';
import type { PushEndpoint } from '@miniqueue/sdk';
import { arg } from '../../../lib/args.js';
import { renderPush, showNewSecret } from '../../../lib/pushView.js';
import { BrokerCommand } from '../../../base/brokerCommand.js';

export default class QueuesPushSet extends BrokerCommand<typeof QueuesPushSet> {
  static summary = "Give a queue a push endpoint (or change it): the broker POSTs the queue's messages there, signed.";

  static description =
    "A 2xx answer acks a message; anything else, a redirect or a timeout retries it with backoff, then dead-letters it after the queue's max retries. The URL must be https, and resolve to public addresses (or ones in MINIQUEUE_PUSH_ALLOWED_NETWORKS). A new endpoint prints its signing secret once, on the last line; changing one keeps its secret.";

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue https://hooks.example.com/miniqueue',
    'SECRET=$(<%= config.bin %> <%= command.id %> email-queue https://hooks.example.com/miniqueue --max-in-flight 8 | tail -n 1)',
  ];

  static args = {
    name: arg('Queue name.'),
    url: arg('Where to POST the messages (https).'),
  };

  static flags = {
    'max-in-flight': Flags.integer({ summary: 'Messages out at once, across all broker instances (1-100, default 4).', min: 1, max: 100 }),
    timeout: Flags.integer({ summary: 'Seconds a POST may take (1-60, default 10).', min: 1, max: 60 }),
  };

  async run(): Promise<PushEndpoint> {
    const { name, url } = this.args;
    const endpoint = await (await this.broker()).push.set(name, url, { maxInFlight: this.flags['max-in-flight'], timeoutSeconds: this.flags.timeout });
    if ('secret' in endpoint) showNewSecret(endpoint, (line) => this.log(line));
    else this.log(`Updated the push endpoint of ${name} (its secret is unchanged):\n${renderPush(endpoint)}`);
    return endpoint;
  }
}
