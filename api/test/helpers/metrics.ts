import { expect } from 'vitest';
import type { TestBroker } from './broker.js';

/** One sample's value from a Prometheus text exposition (0 when the series is absent). */
export function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** /actuator/prometheus as Prometheus reads it, with a key that has the metrics scope. */
export async function scrape(mq: TestBroker, key: string): Promise<string> {
  const response = await mq.get('/actuator/prometheus', key);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return String(response.body);
}
