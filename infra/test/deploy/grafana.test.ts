/**
 * grafana/: the provisioning files and the dashboard; every metric its queries and the alert rules
 * name must be one the broker exports (exportedMetrics() says which).
 */
import { describe, expect, it } from 'vitest';
import { CONTAINER_PATHS } from '../../src/files.js';
import { exportedMetrics, metricNamesIn, metricNamesInVariableQuery, seriesNames } from '../helpers/metricNames.js';
import { repoFile, repoYaml } from '../helpers/repo.js';

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: { expr: string; datasource?: { uid: string } }[];
  panels?: Panel[];
}

const dashboard = JSON.parse(repoFile('grafana/dashboards/miniqueue.json'));
const panels: Panel[] = dashboard.panels.flatMap((p: Panel) => [p, ...(p.panels ?? [])]);
const targets = panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, ...t })));
const variables: { query: string | { query: string } }[] = dashboard.templating.list;
const alertRules: { alert: string; expr: string }[] = repoYaml('prometheus/alerts.yml').groups.flatMap((g: { rules: unknown[] }) => g.rules);

describe('the metric names used by the dashboard and the alerts', () => {
  it('are all exported by the broker (or made by Prometheus itself)', async () => {
    const exported = seriesNames(await exportedMetrics());
    const used = [
      ...targets.map((t) => ({ where: `panel "${t.panel}"`, names: metricNamesIn(t.expr) })),
      ...variables.map((v) => ({ where: 'variable', names: metricNamesInVariableQuery(typeof v.query === 'string' ? v.query : v.query.query) })),
      ...alertRules.map((r) => ({ where: `alert ${r.alert}`, names: metricNamesIn(r.expr) })),
    ];
    const unknown = used.flatMap(({ where, names }) => names.filter((n) => !exported.has(n)).map((n) => `${where}: ${n}`));
    expect(unknown).toEqual([]);
    expect(used.flatMap((u) => u.names).length).toBeGreaterThan(20);
  });

  it('are found in PromQL, leaving out functions, labels, keywords and variables', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.99, sum by (le, route) (rate(miniqueue_http_request_duration_seconds_bucket{status=~"5..", route!="x"}[$__rate_interval])))',
      ),
    ).toEqual(['miniqueue_http_request_duration_seconds_bucket']);
    expect(metricNamesIn('sum(up{job="miniqueue"}) == 0 or absent(up{job="miniqueue"})')).toEqual(['up']);
    expect(metricNamesIn('a_total / on (queue) group_left b_total offset 5m > bool 1')).toEqual(['a_total', 'b_total']);
    expect(metricNamesIn('max by (queue) (miniqueue_queue_dead{queue=~"$queue"})')).toEqual(['miniqueue_queue_dead']);
    expect(metricNamesInVariableQuery('label_values(miniqueue_queue_depth, queue)')).toEqual(['miniqueue_queue_depth']);
    expect(metricNamesInVariableQuery('label_values(queue)')).toEqual([]);
  });

  it('catch a name the broker does not export', async () => {
    const exported = seriesNames(await exportedMetrics());
    expect(metricNamesIn('rate(miniqueue_messages_published[5m])').every((n) => exported.has(n))).toBe(false);
  });
});

describe('grafana/dashboards/miniqueue.json', () => {
  const exprs = targets.map((t) => t.expr).join('\n');

  it('shows publish and ack rates, depth and oldest age per queue, and the DLQ size', () => {
    expect(exprs).toMatch(/sum by \(queue\) \(rate\(miniqueue_messages_published_total/);
    expect(exprs).toMatch(/sum by \(queue\) \(rate\(miniqueue_messages_acked_total/);
    expect(exprs).toMatch(/max by \(queue\) \(miniqueue_queue_depth/);
    expect(exprs).toMatch(/max by \(queue\) \(miniqueue_oldest_pending_age_seconds/);
    expect(exprs).toMatch(/max by \(queue\) \(miniqueue_queue_dead/);
  });

  it('shows publish-to-ack p50 and p99, and the HTTP error rate and latency', () => {
    expect(exprs).toContain('histogram_quantile(0.5, sum by (le) (rate(miniqueue_publish_to_ack_seconds_bucket');
    expect(exprs).toContain('histogram_quantile(0.99, sum by (le) (rate(miniqueue_publish_to_ack_seconds_bucket');
    expect(exprs).toMatch(/miniqueue_http_request_duration_seconds_count\{status=~"5\.\."\}/);
    expect(exprs).toContain('histogram_quantile(0.99, sum by (le, route) (rate(miniqueue_http_request_duration_seconds_bucket');
  });

  const panelTitled = (title: string) => {
    const panel = panels.find((p) => p.title === title);
    if (!panel) throw new Error(`no panel "${title}"`);
    return (panel.targets ?? []).map((target) => target.expr);
  };

  it('plots messages published per topic, apart from the copies each queue stores', () => {
    expect(panelTitled('Messages published per second, by topic')).toEqual([
      'sum by (topic) (rate(miniqueue_topic_publishes_total{topic=~"$topic"}[$__rate_interval]))',
    ]);
    expect(panelTitled('Copies stored per second, by queue')).toEqual([
      'sum by (queue) (rate(miniqueue_messages_published_total{queue=~"$queue"}[$__rate_interval]))',
    ]);
    expect(variables.map((v) => (typeof v.query === 'string' ? v.query : v.query.query))).toContain('label_values(miniqueue_topic_publishes_total, topic)');
  });

  it('shows the latency of the queues chosen, as every other queue panel does', () => {
    const latency = panelTitled('Publish to ack latency');
    expect(latency).toHaveLength(2);
    for (const expr of latency) expect(expr).toContain('miniqueue_publish_to_ack_seconds_bucket{queue=~"$queue"}');
  });

  it('answers "is anything stuck, which queue, who consumes it" on its first row', () => {
    const [first, ...rest] = dashboard.panels as (Panel & { gridPos: { y: number } })[];
    expect(first).toMatchObject({ type: 'row', title: 'Is anything stuck?' });
    const firstRow = rest.slice(
      0,
      rest.findIndex((panel) => panel.type === 'row'),
    );
    const firstRowExprs = firstRow.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)).join('\n');
    for (const series of [
      'miniqueue_oldest_pending_age_seconds',
      'miniqueue_queue_depth',
      'miniqueue_queue_consumers',
      'miniqueue_messages_published_total',
      'miniqueue_messages_acked_total',
      'ALERTS{alertstate="firing"',
    ]) {
      expect(firstRowExprs).toContain(series);
    }
    expect(firstRow.every((panel) => panel.gridPos.y < 10)).toBe(true);
    // Dead letters as a rate: a stat that turned red at the first dead letter of the year and stayed red said nothing.
    expect(exprs).toContain('sum(rate(miniqueue_messages_dead_total{queue=~"$queue"}[10m])) * 60');
    expect(exprs).not.toMatch(/^max\(miniqueue_queue_dead\{queue=~"\$queue"\}\)$/m);
  });

  it('never sums the database gauges over replicas (each reports the same number)', () => {
    for (const gauge of ['miniqueue_queue_depth', 'miniqueue_queue_unacked', 'miniqueue_queue_dead', 'miniqueue_oldest_pending_age_seconds']) {
      expect(exprs).not.toMatch(new RegExp(`sum(?: by \\(queue\\))? \\(${gauge}`));
    }
  });

  it('uses the provisioned datasource everywhere and has unique panel ids', () => {
    const { uid } = repoYaml('grafana/provisioning/datasources/prometheus.yml').datasources[0];
    for (const panel of panels.filter((p) => p.type !== 'row')) expect(panel.datasource?.uid, panel.title).toBe(uid);
    for (const target of targets) expect(target.datasource?.uid).toBe(uid);
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    expect(dashboard.uid).toBe('miniqueue');
  });
});

describe('grafana/provisioning', () => {
  it('points the datasource at the Prometheus service and the dashboards at their mount', () => {
    const datasource = repoYaml('grafana/provisioning/datasources/prometheus.yml').datasources[0];
    expect(datasource).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090', isDefault: true });
    const provider = repoYaml('grafana/provisioning/dashboards/miniqueue.yml').providers[0];
    expect(provider.options.path).toBe(CONTAINER_PATHS.grafanaDashboards);
    expect(repoYaml('docker-compose.yml').services.grafana.volumes).toContain(`./grafana/dashboards:${CONTAINER_PATHS.grafanaDashboards}:ro`);
  });
});
