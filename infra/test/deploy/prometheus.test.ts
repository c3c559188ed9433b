/**
 * prometheus/: the scrape config and the alert rules, through promtool (config, rules and the rule
 * unit tests), and structurally. `npm test` installs promtool first, or stops saying how to.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METRICS_KEY_FILE, METRICS_PATH } from '../../src/health.js';
import { kubernetesPrometheusConfig } from '../../src/kubernetes/prometheusConfig.js';
import { repoPath, repoYaml } from '../helpers/repo.js';

// Never skipped: without promtool these fail (a silently skipped check is no check).
const promtoolTest = it;

const config = repoYaml('prometheus/prometheus.yml');
const rules = repoYaml('prometheus/alerts.yml');
const ruleTests = repoYaml('prometheus/alerts.test.yml');
const alertNames: string[] = rules.groups.flatMap((g: { rules: { alert: string }[] }) => g.rules.map((r) => r.alert));

describe('prometheus/ with promtool', () => {
  promtoolTest('passes check config, check rules and the alert unit tests (check.sh)', () => {
    const output = execFileSync('bash', [repoPath('prometheus/check.sh')], { encoding: 'utf8' });
    expect(output).toContain('SUCCESS');
  });

  // Debian's promtool is built without Kubernetes discovery, so the discovery block is swapped for
  // a static target here and checked on its own below; everything else goes through promtool.
  promtoolTest('accepts the generated Kubernetes config', () => {
    const config = JSON.parse(kubernetesPrometheusConfig('mq', 'prod'));
    for (const job of config.scrape_configs) {
      if (!job.kubernetes_sd_configs) continue;
      delete job.kubernetes_sd_configs;
      job.static_configs = [{ targets: ['10.0.0.1:8080'] }];
    }
    const dir = mkdtempSync(join(tmpdir(), 'prometheus-k8s-'));
    writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify(config));
    const output = execFileSync('promtool', ['check', 'config', '--syntax-only', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
    expect(output).toContain('SUCCESS');
  });
});

describe('the Kubernetes discovery', () => {
  it('finds the running broker pods of this stack in this namespace, one target per pod', () => {
    const job = JSON.parse(kubernetesPrometheusConfig('mq', 'prod')).scrape_configs[0];
    expect(job.kubernetes_sd_configs).toEqual([
      {
        role: 'pod',
        namespaces: { names: ['mq'] },
        selectors: [{ role: 'pod', label: 'app.kubernetes.io/name=miniqueue,app.kubernetes.io/instance=prod' }],
      },
    ]);
    expect(job.relabel_configs).toEqual(
      expect.arrayContaining([
        { source_labels: ['__meta_kubernetes_pod_container_port_name'], regex: 'http', action: 'keep' },
        { source_labels: ['__meta_kubernetes_pod_phase'], regex: 'Running', action: 'keep' },
      ]),
    );
  });
});

describe('prometheus/prometheus.yml', () => {
  const job = config.scrape_configs.find((c: { job_name: string }) => c.job_name === 'miniqueue');

  it("scrapes the broker's metrics path with a bearer key read from a file", () => {
    expect(job.metrics_path).toBe(METRICS_PATH);
    expect(job.authorization).toEqual({ type: 'Bearer', credentials_file: METRICS_KEY_FILE });
    expect(JSON.stringify(config)).not.toMatch(/mq_[A-Za-z0-9_-]{20,}/);
  });

  it('targets the broker as compose names it, and loads the alert rules', () => {
    const compose = repoYaml('docker-compose.yml');
    const [host, port] = job.static_configs[0].targets[0].split(':');
    expect(compose.services).toHaveProperty(host);
    expect(compose.services[host].ports[0]).toMatch(new RegExp(`:${port}$`));
    expect(config.rule_files).toEqual(['alerts.yml']);
  });

  it('matches the Kubernetes config in everything but discovery', () => {
    const k8s = JSON.parse(kubernetesPrometheusConfig('mq', 'prod'));
    const k8sJob = k8s.scrape_configs.find((c: { job_name: string }) => c.job_name === 'miniqueue');
    expect(k8sJob.metrics_path).toBe(job.metrics_path);
    expect(k8sJob.authorization).toEqual(job.authorization);
    expect(k8s.global).toEqual(config.global);
    expect(k8s.rule_files).toEqual(config.rule_files);
  });
});

describe('prometheus/alerts.yml', () => {
  it('alerts on what operators ask: backlog, old pending messages, no consumer, dead letters, failing pushes, the database, group commit, 5xx and the broker being down', () => {
    expect(alertNames.sort()).toEqual([
      'MiniQueueBacklogGrowing',
      'MiniQueueDatabaseUnreachable',
      'MiniQueueDeadLettersGrowing',
      'MiniQueueDown',
      'MiniQueueGroupCommitSaturated',
      'MiniQueueHighServerErrorRate',
      'MiniQueueInstanceDown',
      'MiniQueueOldestPendingTooOld',
      'MiniQueuePendingWithoutConsumers',
      'MiniQueuePushFailing',
    ]);
  });

  it('gives every alert a severity, a summary and a description', () => {
    for (const rule of rules.groups.flatMap((g: { rules: unknown[] }) => g.rules)) {
      expect(['warning', 'critical']).toContain(rule.labels.severity);
      expect(rule.annotations.summary).toBeTruthy();
      expect(rule.annotations.description).toBeTruthy();
    }
  });

  it('has promtool cases that fire each alert', () => {
    const fired = new Set(
      ruleTests.tests.flatMap((t: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }) =>
        t.alert_rule_test.filter((c) => c.exp_alerts.length > 0).map((c) => c.alertname),
      ),
    );
    for (const name of alertNames) expect(fired.has(name), name).toBe(true);
  });
});
