import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BROKER_RESOURCES,
  brokerResources,
  dbPoolSize,
  disruptionBudget,
  needsAutoscaler,
  rollingUpdate,
  scaling,
  terminationGraceSeconds,
} from '../../src/sizing.js';

describe('scaling', () => {
  it('starts two replicas that may grow to six at 70% CPU', () => {
    expect(scaling()).toEqual({ replicas: 2, maxReplicas: 6, targetCpuUtilization: 70 });
  });

  it('never lets the maximum fall below the start', () => {
    expect(scaling(8).maxReplicas).toBe(8);
    expect(() => scaling(4, 3)).toThrow(/maxReplicas \(3\)/);
  });

  it('refuses nonsense', () => {
    expect(() => scaling(0)).toThrow(/replicas/);
    expect(() => scaling(1.5)).toThrow(/replicas/);
    expect(() => scaling(2, 4, 5)).toThrow(/targetCpuUtilization/);
  });

  it('adds an autoscaler only when it has room', () => {
    expect(needsAutoscaler(scaling(2, 6))).toBe(true);
    expect(needsAutoscaler(scaling(3, 3))).toBe(false);
  });
});

describe('brokerResources', () => {
  it('defaults to requests and limits for CPU and memory', () => {
    expect(brokerResources()).toEqual(DEFAULT_BROKER_RESOURCES);
  });

  it('merges partial overrides', () => {
    expect(brokerResources({ limits: { memory: '1Gi' } })).toEqual({
      requests: DEFAULT_BROKER_RESOURCES.requests,
      limits: { cpu: DEFAULT_BROKER_RESOURCES.limits.cpu, memory: '1Gi' },
    });
  });

  it('rejects malformed quantities before anything is deployed', () => {
    expect(() => brokerResources({ requests: { cpu: 'lots' } })).toThrow(/requests\.cpu/);
    expect(() => brokerResources({ limits: { memory: '1 GB' } })).toThrow(/limits\.memory/);
  });
});

describe('dbPoolSize', () => {
  it('fits every replica the autoscaler may start into the database', () => {
    for (const [maxReplicas, maxConnections] of [
      [6, 100],
      [10, 100],
      [3, 50],
      [20, 500],
    ]) {
      const pool = dbPoolSize(maxReplicas, maxConnections);
      // pool + dashboard pool (2) + LISTEN + coordinator + health check (or migrations) per broker, ten kept free
      expect(maxReplicas * (pool + 2 + 3) + 10).toBeLessThanOrEqual(maxConnections);
      expect(pool).toBeGreaterThanOrEqual(2);
    }
  });

  it('is 10 for the default six replicas on 100 connections, and never above 20', () => {
    expect(dbPoolSize(6, 100)).toBe(10);
    expect(dbPoolSize(1, 100)).toBe(20);
  });

  it('refuses a scale the database cannot hold', () => {
    expect(() => dbPoolSize(30, 100)).toThrow(/raise databaseMaxConnections or lower maxReplicas/);
  });
});

describe('rollouts and evictions', () => {
  it('waits out the pre-stop pause and the broker shutdown before killing', () => {
    expect(terminationGraceSeconds(25, 5)).toBe(35);
  });

  it('keeps full capacity during a rollout and drains one broker at a time', () => {
    expect(rollingUpdate()).toEqual({ maxSurge: 1, maxUnavailable: 0 });
    expect(disruptionBudget()).toEqual({ maxUnavailable: 1 });
  });
});
