/**
 * The metric names the dashboards and alerts may use, and the names a PromQL expression uses.
 * `exportedMetrics()` scrapes a real broker (on a real PostgreSQL), so a dashboard or alert that
 * names a metric the broker does not export fails its test.
 */
import { startTestBroker } from '@miniqueue/api/testing';

export interface ExportedMetric {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
}

/** `# TYPE <name> <type>` lines of a Prometheus text exposition. */
export function parseExposition(text: string): ExportedMetric[] {
  return [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => ({
    name: match[1],
    type: match[2] as ExportedMetric['type'],
  }));
}

let scraped: Promise<ExportedMetric[]> | undefined;

async function scrapeBroker(): Promise<ExportedMetric[]> {
  const broker = await startTestBroker();
  try {
    const key = await broker.clientKey('prometheus', ['metrics']);
    const response = await broker.get('/actuator/prometheus', key);
    if (response.status !== 200) throw new Error(`scrape answered ${response.status}`);
    return parseExposition(String(response.body));
  } finally {
    await broker.stop();
  }
}

export function exportedMetrics(): Promise<ExportedMetric[]> {
  scraped ??= scrapeBroker();
  return scraped;
}

/** Series Prometheus makes itself: for every target whatever it exports, and ALERTS for the rules it evaluates. */
export const SYNTHETIC_SERIES = ['up', 'scrape_duration_seconds', 'scrape_samples_scraped', 'scrape_series_added', 'ALERTS'];

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

const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan', 'atan2']);

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
