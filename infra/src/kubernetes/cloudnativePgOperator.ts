/**
 * The CloudNativePG operator, from its Helm chart, cluster-wide in a namespace of its own. It owns
 * PostgreSQL's failover on Kubernetes: it watches the instances, promotes the most advanced
 * standby when the primary is lost, repoints the `-rw` Service and fences the old primary.
 */
import * as k8s from '@pulumi/kubernetes';

/** Chart 0.29.0 installs operator 1.30.0, whose Cluster CRD the tests validate against. */
export const CLOUDNATIVE_PG_CHART = {
  chart: 'cloudnative-pg',
  version: '0.29.0',
  repo: 'https://cloudnative-pg.github.io/charts',
} as const;

/** The chart's values: its CRDs come with it, so the Cluster below can be created in the same run. */
export const CLOUDNATIVE_PG_VALUES = { crds: { create: true }, replicaCount: 1 } as const;

export function createCloudnativePgOperator(namespace: string): k8s.helm.v3.Release {
  return new k8s.helm.v3.Release('cloudnative-pg', {
    name: 'cloudnative-pg',
    chart: CLOUDNATIVE_PG_CHART.chart,
    version: CLOUDNATIVE_PG_CHART.version,
    repositoryOpts: { repo: CLOUDNATIVE_PG_CHART.repo },
    namespace,
    createNamespace: true,
    values: CLOUDNATIVE_PG_VALUES,
    // The operator must be running (its webhooks answering) before a Cluster is submitted.
    waitForJobs: true,
  });
}
