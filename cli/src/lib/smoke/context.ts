import { randomBytes } from 'node:crypto';
import type * as Sdk from '@miniqueue/sdk';
import type { SmokeContext, SmokeOptions } from './types.js';

/** A failing check should fail in seconds, not after the SDK's default minute of retries. */
const CALL = { timeoutMs: 10_000, retry: { attempts: 2 } };

export interface SmokeRun {
  context: SmokeContext;
  /** Deletes what the run created, queues before their topics; returns what could not be deleted. */
  cleanup(): Promise<string[]>;
}

/**
 * Every name starts with `smoke-<random>`: unique per run, so runs against one broker (two
 * deploys at once, or leftovers of a killed run) never meet, and easy to find and remove by hand.
 */
export function smokeRun(sdk: typeof Sdk, options: SmokeOptions): SmokeRun {
  const prefix = `smoke-${randomBytes(4).toString('hex')}`;
  const as = (key?: string) => new sdk.MiniQueue({ url: options.url, apiKey: key, ...CALL });
  const admin = as(options.adminKey);
  const topics: string[] = [];
  const queues: string[] = [];
  const clients: string[] = [];
  const context: SmokeContext = {
    options,
    admin,
    as,
    async topicWithQueue(label, maxRetries) {
      const name = `${prefix}.${label}`;
      await admin.topics.create(name);
      topics.push(name);
      await admin.queues.create(name, name, { maxRetries });
      queues.push(name);
      return { topic: name, queue: name };
    },
    async clientWith(label, scopes) {
      const name = `${prefix}-${label}`;
      const created = await admin.clients.create(name, scopes);
      clients.push(name);
      return { name, key: created.api_key };
    },
  };
  const remove = async (what: string, call: () => Promise<unknown>, problems: string[]) => {
    try {
      await call();
    } catch (error) {
      // Already gone (the revocation check deletes its own client) is what cleanup wants.
      if ((error as { status?: number }).status !== 404) problems.push(`${what}: ${(error as Error).message}`);
    }
  };
  async function cleanup(): Promise<string[]> {
    const problems: string[] = [];
    for (const name of queues) await remove(`queue ${name}`, () => admin.queues.delete(name), problems);
    for (const name of topics) await remove(`topic ${name}`, () => admin.topics.delete(name), problems);
    for (const name of clients) await remove(`client ${name}`, () => admin.clients.delete(name), problems);
    return problems;
  }
  return { context, cleanup };
}
