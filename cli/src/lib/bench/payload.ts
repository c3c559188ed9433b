import { performance } from 'node:perf_hooks';

/** Milliseconds on one clock shared by producers and consumers (both run in this process). */
export const now = (): number => performance.timeOrigin + performance.now();

/**
 * A payload of about `size` bytes that carries the time it was sent, as PerfTest puts a
 * timestamp in each message body, so a consumer can tell publish-to-ack latency. `sentAt` 0
 * marks messages put there before the clock started (--prefill): they have no latency to report.
 */
export function makePayload(size: number, sentAt: number): string {
  const head = `{"t":${sentAt.toFixed(3)},"p":"`;
  const tail = '"}';
  return `${head}${'x'.repeat(Math.max(0, size - head.length - tail.length))}${tail}`;
}

/** The send time of a bench payload, or null for a prefilled message or a payload not ours. */
export function sentAtOf(payload: string): number | null {
  const match = /^\{"t":([\d.]+),/.exec(payload);
  const sentAt = match ? Number(match[1]) : 0;
  return sentAt > 0 ? sentAt : null;
}
