import { describe, expect, it } from 'vitest';
import { headersOf } from './publish';
import { TEMPLATES } from './templates';
import { checkJson } from '../../../lib/json';

describe('publishing', () => {
  it('sends header rows as a map, skipping blank names', () => {
    expect(
      headersOf([
        { name: ' content-type ', value: 'application/json' },
        { name: '', value: 'ignored' },
        { name: 'x', value: '' },
      ]),
    ).toEqual({
      'content-type': 'application/json',
      x: '',
    });
    expect(headersOf([{ name: ' ', value: 'v' }])).toBeUndefined();
  });

  it('offers templates whose JSON is valid, and fresh on every pick', () => {
    for (const template of TEMPLATES.filter((candidate) => candidate.json)) expect(checkJson(template.payload()), template.id).toEqual({ ok: true });
    const order = TEMPLATES.find((template) => template.id === 'order')!;
    const ids = new Set(Array.from({ length: 5 }, () => JSON.parse(order.payload()).orderId));
    expect(ids.size).toBeGreaterThan(1);
  });
});
