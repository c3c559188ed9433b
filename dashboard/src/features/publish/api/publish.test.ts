import { describe, expect, it } from 'vitest';
import { expiresProblem, headersOf } from './publish';
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

  it("takes an expiry that is empty or a whole number of seconds in the contract's range", () => {
    for (const ok of ['', ' ', '1', ' 60 ', '1209600']) expect(expiresProblem(ok), ok).toBeNull();
    for (const bad of ['0', '-5', '1.5', '1e3', 'soon', '1209601'])
      expect(expiresProblem(bad), bad).toBe('A whole number of seconds from 1 to 1209600, or empty.');
  });

  it('offers templates whose JSON is valid, and fresh on every pick', () => {
    for (const template of TEMPLATES.filter((candidate) => candidate.json)) expect(checkJson(template.payload()), template.id).toEqual({ ok: true });
    const order = TEMPLATES.find((template) => template.id === 'order')!;
    const ids = new Set(Array.from({ length: 5 }, () => JSON.parse(order.payload()).orderId));
    expect(ids.size).toBeGreaterThan(1);
  });
});
