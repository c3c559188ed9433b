/**
 * The metric names the dashboards and alerts may use, and the names a PromQL expression uses.
 * `exportedMetrics()` is the one place that says what the broker exports: today the contract's
 * list plus prom-client's default process metrics; swap its body for a parsed scrape of a running
 * broker and every test using it follows.
 */
import client from 'prom-client';

export interface ExportedMetric { name: string; type: 'counter' | 'gauge' | 'histogram' | 'summary' }

const CONTRACT: ExportedMetric[] = [
  ...['published', 'consumed', 'acked', 'dead', 'redelivered'].map((verb) => ({ name: `miniqueue_messages_${verb}_total`, type: 'counter' as const })),
  ...['miniqueue_queue_depth', 'miniqueue_queue_unacked', 'miniqueue_queue_dead', 'miniqueue_oldest_pending_age_seconds'].map((name) => ({ name, type: 'gauge' as const })),
  { name: 'miniqueue_publish_to_ack_seconds', type: 'histogram' },
  { name: 'miniqueue_http_request_duration_seconds', type: 'histogram' },
];

async function processMetrics(): Promise<ExportedMetric[]> {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const metrics = await registry.getMetricsAsJSON();
  return metrics.map((metric) => ({ name: metric.name, type: String(metric.type) as ExportedMetric['type'] }));
}

export async function exportedMetrics(): Promise<ExportedMetric[]> {
  return [...CONTRACT, ...(await processMetrics())];
}

/** Series Prometheus makes itself for every target, whatever the target exports. */
export const SYNTHETIC_SERIES = ['up', 'scrape_duration_seconds', 'scrape_samples_scraped', 'scrape_series_added'];

/** Every series name an exporter's metrics give rise to (histograms: _bucket, _sum, _count). */
export function seriesNames(metrics: ExportedMetric[]): Set<string> {
  const names = new Set(SYNTHETIC_SERIES);
  for (const { name, type } of metrics) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

const KEYWORDS = new Set([
  'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset',
  'inf', 'nan', 'atan2',
]);

/**
 * The metric names in a PromQL expression: identifiers that are not functions, keywords, label
 * names in matchers or grouping clauses, durations, or Grafana variables.
 */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\$\{?\w+\}?/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\b\d+(?:\.\d+)?(?:ms|s|m|h|d|w|y)?\b/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const name = match[0];
    const rest = stripped.slice((match.index ?? 0) + name.length);
    if (/^\s*\(/.test(rest) || KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return [...names];
}

/** Grafana variable queries: `label_values(metric, label)` names a metric, `label_values(label)` none. */
export function metricNamesInVariableQuery(query: string): string[] {
  const labelValues = /^\s*label_values\(\s*(?:([A-Za-z_:][A-Za-z0-9_:]*)\s*(?:\{[^}]*\})?\s*,)?\s*\w+\s*\)\s*$/.exec(query);
  if (labelValues) return labelValues[1] ? [labelValues[1]] : [];
  const wrapped = /^\s*query_result\((.*)\)\s*$/s.exec(query);
  return metricNamesIn(wrapped ? wrapped[1] : query);
}
