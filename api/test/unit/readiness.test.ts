import { describe, expect, it } from 'vitest';
import { readinessOf } from '../../src/lifecycle/readiness.js';
import type { ServiceHealth } from '../../src/lifecycle/service.js';

const running = (name: string, problem?: string, parts?: ServiceHealth[]): ServiceHealth => ({ name, state: 'running', problem, parts });

describe('readiness from the services of an instance', () => {
  it('is UP when everything runs without a problem, parts included', () => {
    expect(readinessOf([running('database-pool'), running('realtime-hub', undefined, [running('realtime-coordinator')])])).toEqual({ status: 'UP' });
  });

  it('is DEGRADED, naming them, when background services report problems', () => {
    expect(readinessOf([running('retention', 'last pass failed: timeout'), running('notification-bus')])).toEqual({
      status: 'DEGRADED',
      degraded: ['retention'],
    });
  });

  it('is DOWN when a connection it serves with is lost, however deep the part', () => {
    const hub = running('realtime-hub', undefined, [running('consumer-dispatch', undefined, [running('realtime-coordinator', 'no coordination connection')])]);
    expect(readinessOf([running('retention', 'failed'), hub])).toEqual({ status: 'DOWN', why: 'connection-lost', services: ['realtime-coordinator'] });
  });

  it('is DOWN while a service is stopping; one never started is not its part', () => {
    expect(readinessOf([running('a'), { name: 'http-server', state: 'stopping' }])).toEqual({ status: 'DOWN', why: 'stopping', services: ['http-server'] });
    expect(readinessOf([running('a'), { name: 'realtime-hub', state: 'idle' }])).toEqual({ status: 'UP' });
  });
});
