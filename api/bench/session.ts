import { startBroker, type Broker } from './broker.js';
import type { BenchConfig } from './config.js';
import { BenchClient, type LoadResult } from './http.js';
import { measure, type Measurement } from './measure.js';
import { consumeAck, publishSingle, publishBatch, receiveAck } from './scenarios/throughput.js';
import { createKeys, createTopic, type Keys, type Topics } from './scenarios/topology.js';

/** What every phase of the run shares. */
export interface RunContext {
  config: BenchConfig;
  /** The PostgreSQL server's maintenance database (WAL inspection). */
  serverUrl: string;
  adminKey: string;
  log: (line: string) => void;
  /** Filled as broker processes stop: their peak RSS and total CPU. */
  brokers: { name: string; peakRssBytes: number | null; cpuSeconds: number }[];
}

/**
 * One broker process and the clients that talk to it: an admin (topology, purge), a publisher
 * and a consumer, each a keep-alive connection pool as large as the load's concurrency.
 */
export class BrokerSession {
  readonly admin: BenchClient;
  publisher!: BenchClient;
  consumer!: BenchClient;

  private constructor(
    private readonly context: RunContext,
    readonly broker: Broker,
    readonly databaseUrl: string,
  ) {
    this.admin = new BenchClient(broker.url, context.adminKey, 4);
  }

  static async open(context: RunContext, name: string, databaseUrl: string, env?: Record<string, string>): Promise<BrokerSession> {
    const broker = await startBroker({ name, databaseUrl, adminKey: context.adminKey, env, cpuProfDir: context.config.cpuProfDir, log: context.log });
    return new BrokerSession(context, broker, databaseUrl);
  }

  /**
   * A phase on a broker and database of its own: its topics made (each with its queues and their
   * settings), keys registered and the broker warmed up before `work`; the broker stops after,
   * however `work` ends.
   */
  static async around<T>(context: RunContext, name: string, databaseUrl: string, topics: Topics, work: (session: BrokerSession) => Promise<T>): Promise<T> {
    const session = await BrokerSession.open(context, name, databaseUrl);
    try {
      for (const [topic, queues] of Object.entries(topics)) await createTopic(session.admin, topic, queues);
      session.useKeys(await createKeys(session.admin));
      context.log('warming up');
      await session.warmUp();
      return await work(session);
    } finally {
      await session.close();
    }
  }

  /** Clients for keys made on any broker of the same database. */
  useKeys(keys: Keys): void {
    const concurrency = this.context.config.concurrency;
    this.publisher = new BenchClient(this.broker.url, keys.publish, concurrency);
    this.consumer = new BenchClient(this.broker.url, keys.consume, concurrency);
  }

  /** Measures `work` on this broker's database, counting this broker's CPU (and `others'`). */
  measure(id: string, label: string, work: () => Promise<LoadResult & { extra?: Record<string, number> }>, others: BrokerSession[] = []): Promise<Measurement> {
    return measure(
      {
        id,
        label,
        system: 'miniqueue',
        databaseUrl: this.databaseUrl,
        serverUrl: this.context.serverUrl,
        brokers: [this.broker, ...others.map((other) => other.broker)],
        sampleEveryMs: this.context.config.sampleEveryMs,
        log: this.context.log,
      },
      work,
    );
  }

  /**
   * A few hundred requests of every kind before anything is measured, so V8 has compiled the
   * hot paths and the pools hold open connections.
   */
  async warmUp(): Promise<void> {
    const { warmup, concurrency, batchSize } = this.context.config;
    await createTopic(this.admin, 'bench.warmup', ['bench-warmup']);
    const bound = { count: warmup, seconds: 30 };
    await publishSingle(this.publisher, 'bench.warmup', bound, concurrency);
    await publishBatch(this.publisher, 'bench.warmup', batchSize, { count: Math.ceil(warmup / batchSize) * 2, seconds: 30 }, concurrency);
    await consumeAck(this.consumer, 'bench-warmup', bound, concurrency);
    await receiveAck(this.consumer, 'bench-warmup', 100, { count: Number.MAX_SAFE_INTEGER, seconds: 60 }, concurrency);
  }

  /** Stops the broker and records its peak RSS and CPU (read just before it stops). */
  async close(): Promise<void> {
    const peakRssBytes = this.broker.peakRss();
    const cpuSeconds = this.broker.cpuSeconds();
    for (const client of [this.admin, this.publisher, this.consumer]) client?.close();
    await this.broker.stop();
    this.context.brokers.push({ name: this.broker.name, peakRssBytes, cpuSeconds });
  }
}
