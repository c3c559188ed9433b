import { describe, expect, it } from 'vitest';
import { filterOf, nameProblem } from './topology';

describe('the form checks names as the broker does', () => {
  it('refuses . and .., which no URL can address, and takes other names', () => {
    expect(nameProblem('.')).not.toBeNull();
    expect(nameProblem('..')).not.toBeNull();
    expect(nameProblem('...')).toBeNull();
    expect(nameProblem('order.placed')).toBeNull();
  });
});

describe('the filter field', () => {
  it('is no filter when empty, a filter when a JSON object, and a problem otherwise', () => {
    expect(filterOf('  ')).toEqual({});
    expect(filterOf('{"header":"region","equals":"eu"}')).toEqual({ filter: { header: 'region', equals: 'eu' } });
    expect(filterOf('{"header":')).toEqual({ problem: 'Not valid JSON.' });
    expect(filterOf('["region"]').problem).toMatch(/^A JSON object/);
    expect(filterOf('null').problem).toMatch(/^A JSON object/);
  });
});
