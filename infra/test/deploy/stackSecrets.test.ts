/**
 * A stack's config file holds its secrets (encrypted) and its encryption salt once `pulumi config
 * set --secret` ran: it must never be tracked. What is tracked is an example to copy, without any.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const INFRA = fileURLToPath(new URL('../../', import.meta.url));
const STACKS = ['local', 'kubernetes'];

/** Whether git would leave the file out (`git check-ignore` exits 0 for an ignored path, 1 otherwise). */
function ignored(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '--quiet', '--no-index', path], { cwd: INFRA });
    return true;
  } catch (error) {
    if ((error as { status?: number }).status === 1) return false;
    throw error;
  }
}

describe("the stacks' config files", () => {
  it.each(STACKS)('Pulumi.%s.yaml, where pulumi writes secrets, is ignored by git; its example is not', (stack) => {
    expect(ignored(`Pulumi.${stack}.yaml`)).toBe(true);
    expect(ignored(`Pulumi.${stack}.example.yaml`)).toBe(false);
    expect(ignored('Pulumi.yaml')).toBe(false);
  });

  it.each(STACKS)('Pulumi.%s.example.yaml holds no secret and no encryption salt', (stack) => {
    const text = readFileSync(`${INFRA}Pulumi.${stack}.example.yaml`, 'utf8');
    const example = parse(text) as Record<string, unknown> & { config: Record<string, unknown> };
    expect(Object.keys(example)).toEqual(['config']);
    for (const [key, value] of Object.entries(example.config)) expect(JSON.stringify(value), key).not.toContain('secure');
  });

  it('the README says how a first run starts: a backend, a passphrase (or another secrets provider), the example copied', () => {
    const readme = readFileSync(`${INFRA}README.md`, 'utf8');
    expect(readme).toContain('pulumi login --local');
    expect(readme).toContain('PULUMI_CONFIG_PASSPHRASE');
    expect(readme).toContain('--secrets-provider');
    for (const stack of STACKS) expect(readme).toContain(`cp Pulumi.${stack}.example.yaml Pulumi.${stack}.yaml`);
  });
});
