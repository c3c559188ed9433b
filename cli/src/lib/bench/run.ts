import type * as Sdk from '@miniqueue/sdk';
import { performance } from 'node:perf_hooks';
import { prefill } from './prefill.js';
import { benchReport, loadLine, progressLine, type BenchReport, type BenchSettings } from './report.js';
import { BenchStats, type Snapshot } from './stats.js';
import { createTopology } from './topology.js';
import { streamConsumer } from './streamWorker.js';
import { consumer, producer } from './workers.js';

export interface BenchRun {
  sdk: typeof Sdk;
  url: string;
  adminKey: string;
  settings: BenchSettings;
  /** How single publishes and consumers go: over the stream (default) or one HTTP request each. */
  transport?: 'stream' | 'http';
  /** Ends the run early (Ctrl-C); what was measured so far is reported. */
  interrupt: AbortSignal;
  progress: (line: string) => void;
  /** Where the phases are told as they start (the warm-up, then the measured run). */
  announce: (line: string) => void;
  /** Where cleanup problems are told. */
  warn: (line: string) => void;
}

/** Long poll of consumers while producers run: an empty queue is waited on, not polled in a loop. */
const CONSUMER_WAIT_SECONDS = 1;

/** Messages put on the queues for a warm-up without producers: more than consumers take in a second. */
const WARMUP_MESSAGES_PER_SECOND = 3_000;

export async function runBench(run: BenchRun): Promise<BenchReport> {
  const { settings } = run;
  // One attempt per request: a load test counts errors, it does not hide them behind retries. The
  // SDK sends over node:http with keep-alive, one socket per request in flight, as `npm run bench` does.
  const clients: Sdk.MiniQueue[] = [];
  const client = (apiKey: string) => {
    const made = new run.sdk.MiniQueue({ url: run.url, apiKey, retry: { attempts: 1 }, transport: run.transport ?? 'stream' });
    clients.push(made);
    return made;
  };
  const admin = client(run.adminKey);
  const topology = await createTopology(admin, settings.queues);
  try {
    const publisher = client(topology.producerKey);
    const claimer = client(topology.consumerKey);
    const workers = (stats: BenchStats, stop: AbortSignal) => [
      ...Array.from({ length: settings.producers }, () =>
        producer(publisher, { topic: topology.topic, size: settings.size, batch: settings.publish_batch }, stats, stop),
      ),
      ...Array.from({ length: settings.consumers }, (_, i) => {
        const queue = topology.queues[i % topology.queues.length];
        // With nothing being published, a consumer is done when its queue is empty.
        const drain = settings.producers === 0;
        if (run.transport !== 'http') return streamConsumer(claimer, { queue, prefetch: settings.prefetch, drain }, stats, stop);
        return consumer(claimer, { queue, batch: settings.receive_batch, waitSeconds: drain ? 0 : CONSUMER_WAIT_SECONDS }, stats, stop);
      }),
    ];
    if (settings.warmup_seconds > 0 && !run.interrupt.aborted) {
      run.announce(`Warming up for ${settings.warmup_seconds} s: the same load, not counted (--warmup 0 skips it).`);
      // The same load, uncounted, until this process and the broker are up to speed (a fresh
      // process runs its first thousands of requests at a fraction of its speed); then the queues
      // are emptied, so the measured run starts as if nothing had happened.
      if (settings.producers === 0) await prefill(publisher, topology.topic, settings.warmup_seconds * WARMUP_MESSAGES_PER_SECOND, settings.size);
      await measure(run, new BenchStats(), settings.warmup_seconds, null, (stop, stats) => workers(stats, stop));
      for (const queue of topology.queues) await admin.queues.purge(queue);
    }
    const stats = new BenchStats();
    if (settings.prefill > 0) {
      await prefill(publisher, topology.topic, settings.prefill, settings.size);
      stats.stored += settings.prefill * topology.queues.length;
    }
    run.announce(loadLine(settings, run.transport ?? 'stream'));
    const snapshot = await measure(run, stats, settings.duration_seconds, run.progress, (stop) => workers(stats, stop));
    return benchReport(run.url, settings, stats, snapshot);
  } finally {
    for (const problem of await topology.remove()) run.warn(`Cleanup failed: ${problem}`);
    clients.forEach((made) => made.close());
  }
}

/**
 * Runs the workers for `seconds`, or until the interrupt fires or they all finish. Rates count
 * what was done when the clock stopped; the requests then under way finish afterwards (at most
 * a consumer's long poll), so nothing is cut off mid-request.
 */
async function measure(
  run: BenchRun,
  stats: BenchStats,
  seconds: number,
  progress: ((line: string) => void) | null,
  start: (stop: AbortSignal, stats: BenchStats) => Array<Promise<void>>,
): Promise<Snapshot> {
  const stop = new AbortController();
  const started = performance.now();
  let final: Snapshot | undefined;
  const halt = () => {
    final ??= { seconds: (performance.now() - started) / 1000, published: stats.published, acked: stats.acked };
    stop.abort();
  };
  const timer = setTimeout(halt, seconds * 1000);
  run.interrupt.addEventListener('abort', halt, { once: true });
  let last = { at: started, published: 0, acked: 0 };
  const ticker = progress
    ? setInterval(() => {
        const at = performance.now();
        const elapsed = (at - last.at) / 1000;
        progress(progressLine((at - started) / 1000, (stats.published - last.published) / elapsed, (stats.acked - last.acked) / elapsed, stats));
        last = { at, published: stats.published, acked: stats.acked };
      }, 1000)
    : undefined;
  try {
    await Promise.all(start(stop.signal, stats));
  } finally {
    halt();
    clearTimeout(timer);
    clearInterval(ticker);
    run.interrupt.removeEventListener('abort', halt);
  }
  return final!;
}
