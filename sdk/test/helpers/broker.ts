import { afterAll, beforeAll } from 'vitest';
import { leaseSweeper, startTestBroker, type TestBroker } from '@miniqueue/api/testing';
import { MiniQueue, type MiniQueueOptions } from '../../src/index.js';

export interface SdkBroker {
  broker: TestBroker;
  /** A client with the bootstrap admin key. */
  admin: MiniQueue;
  /** Registers a client with these scopes and returns an SDK client using its key. */
  client(name: string, scopes: string[], options?: Partial<MiniQueueOptions>): Promise<MiniQueue>;
  /** One pass of the broker's lease sweeper (no cron runs in tests). */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/** A real broker, listening on 127.0.0.1, on its own fresh database. */
export async function startSdkBroker(env: Record<string, string> = {}): Promise<SdkBroker> {
  const broker = await startTestBroker({ listen: true, env });
  const admin = new MiniQueue({ url: broker.url, apiKey: broker.adminKey });
  return {
    broker,
    admin,
    async client(name, scopes, options = {}) {
      const created = await admin.clients.create(name, scopes);
      return new MiniQueue({ url: broker.url, apiKey: created.api_key, ...options });
    },
    sweep: async () => Number(await leaseSweeper(broker.pool, broker.broker.context.changes).runOnce()),
    stop: () => broker.stop(),
  };
}

/** One broker for the calling test file: started before its tests, stopped after them. */
export function brokerForFile(onStarted: (started: SdkBroker) => void): void {
  let started: SdkBroker | undefined;
  beforeAll(async () => {
    started = await startSdkBroker();
    onStarted(started);
  });
  afterAll(() => started?.stop());
}

/** Resolves once `condition` holds, polling every 20 ms; fails after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
