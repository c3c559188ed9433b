import { describe, expect, it } from 'vitest';
import { SECRET_SIG, SECRET_SIG_KEY, strings } from '../helpers/pulumiProgram.js';

const secret = (value: unknown) => ({ [SECRET_SIG_KEY]: SECRET_SIG, value });

describe('the secret scan used by the program tests', () => {
  it('tells strings inside a Pulumi secret from plain ones, at any depth', () => {
    const found = strings({ env: ['A=1', secret('DATABASE_URL=postgres://u:pw@h/d')], data: { key: secret({ nested: ['pw'] }) } });
    expect(found).toEqual([
      { path: '.env[0]', text: 'A=1', secret: false },
      { path: '.env[1]<secret>', text: 'DATABASE_URL=postgres://u:pw@h/d', secret: true },
      { path: '.data.key<secret>.nested[0]', text: 'pw', secret: true },
    ]);
  });

  it('sees a leaked value in plain text', () => {
    const plain = strings({ env: [{ name: 'X', value: 'postgres://u:pw@h/d' }] });
    expect(plain.some((s) => !s.secret && s.text.includes('pw'))).toBe(true);
  });
});
