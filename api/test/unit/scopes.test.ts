import { describe, expect, it } from 'vitest';
import { consumableQueues, hasScope, normalizeScope } from '../../src/auth/scopes.js';

describe('scopes', () => {
  it('admin implies everything; wildcards cover their kind only', () => {
    expect(hasScope({ scopes: ['admin'] }, 'consume:q')).toBe(true);
    expect(hasScope({ scopes: ['publish:*'] }, 'publish:orders')).toBe(true);
    expect(hasScope({ scopes: ['publish:*'] }, 'consume:orders')).toBe(false);
    expect(hasScope({ scopes: ['publish:orders'] }, 'publish:other')).toBe(false);
    expect(hasScope({ scopes: ['view'] }, 'metrics')).toBe(false);
  });

  it('knows which queues a principal may consume from', () => {
    expect(consumableQueues({ scopes: ['consume:a', 'publish:b', 'consume:c'] })).toEqual(['a', 'c']);
    expect(consumableQueues({ scopes: ['consume:*'] })).toBeNull();
    expect(consumableQueues({ scopes: ['view'] })).toEqual([]);
  });

  it('normalizes known scopes and rejects the rest', () => {
    expect(normalizeScope(' Consume:Email-Queue ')).toBe('consume:email-queue');
    for (const bad of ['root', 'publish:', 'consume:a b', 'view:x', `publish:${'x'.repeat(101)}`]) {
      expect(normalizeScope(bad)).toBeNull();
    }
  });
});
