import { describe, expect, it } from 'vitest';
import { nameProblem } from './topology';

describe('the form checks names as the broker does', () => {
  it('refuses . and .., which no URL can address, and takes other names', () => {
    expect(nameProblem('.')).not.toBeNull();
    expect(nameProblem('..')).not.toBeNull();
    expect(nameProblem('...')).toBeNull();
    expect(nameProblem('order.placed')).toBeNull();
  });
});
