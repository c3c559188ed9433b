import { describe, expect, it } from 'vitest';
import { clusterUrl, dockerName, labels, selectorLabels } from '../../src/naming.js';

describe('naming', () => {
  it('selects pods by name and stack only, so descriptive labels may change later', () => {
    expect(selectorLabels('broker', 'prod')).toEqual({
      'app.kubernetes.io/name': 'miniqueue',
      'app.kubernetes.io/instance': 'prod',
    });
    expect(labels('broker', 'prod')).toMatchObject(selectorLabels('broker', 'prod'));
    expect(labels('postgres', 'prod')['app.kubernetes.io/component']).toBe('postgres');
  });

  it('gives every component its own selector, so no Service picks up another one', () => {
    const selectors = (['broker', 'postgres', 'prometheus', 'grafana'] as const).map((component) => JSON.stringify(selectorLabels(component, 's')));
    expect(new Set(selectors).size).toBe(4);
  });

  it('names docker objects by stack and in-cluster services by DNS', () => {
    expect(dockerName('local', 'postgres')).toBe('miniqueue-local-postgres');
    expect(clusterUrl('broker', 'mq')).toBe('http://miniqueue.mq.svc.cluster.local:8080');
    expect(clusterUrl('grafana', 'mq')).toBe('http://grafana.mq.svc.cluster.local:3000');
  });
});
