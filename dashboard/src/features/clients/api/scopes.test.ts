import { describe, expect, it } from 'vitest';
import { emptySelection, isScope, scopesOf } from './scopes';

describe('the scope picker', () => {
  it('grants exactly what was picked', () => {
    expect(scopesOf({ ...emptySelection(), view: true, publish: ['orders'], consume: ['email-queue', 'stock'] })).toEqual([
      'view',
      'publish:orders',
      'consume:email-queue',
      'consume:stock',
    ]);
    expect(scopesOf(emptySelection())).toEqual([]);
  });

  it('drops what a broader pick already covers', () => {
    expect(scopesOf({ ...emptySelection(), admin: true, view: true, publish: ['orders'] })).toEqual(['admin']);
    expect(scopesOf({ ...emptySelection(), publishAny: true, publish: ['orders'], extra: ['publish:later', 'consume:later'] })).toEqual([
      'publish:*',
      'consume:later',
    ]);
  });

  it('accepts only scopes the broker knows', () => {
    for (const scope of ['admin', 'view', 'metrics', 'publish:*', 'publish:order.placed', 'consume:email-queue']) expect(isScope(scope), scope).toBe(true);
    for (const scope of ['root', 'publish:', 'consume:a b', 'publish:orders:x', 'view ']) expect(isScope(scope), scope).toBe(false);
  });
});
