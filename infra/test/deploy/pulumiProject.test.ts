/**
 * Pulumi.yaml and the example stack configs: the keys they set are keys the program reads, and
 * the README documents every key the program reads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const infraFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readKeys = [
  ...infraFile('src/settings.ts').matchAll(/config\.(?:get|getNumber|getBoolean|getObject|getSecret|require|requireSecret)(?:<[^>]+>)?\('(\w+)'\)/g),
].map((m) => m[1]);

describe('the Pulumi project', () => {
  it('runs src/index.ts with tsx, like the broker', () => {
    const project = parse(infraFile('Pulumi.yaml'));
    expect(project).toMatchObject({ name: 'miniqueue', main: 'src/index.ts', runtime: { name: 'nodejs', options: { nodeargs: '--import tsx' } } });
  });

  it('reads the keys the example stacks set', () => {
    expect(readKeys.length).toBeGreaterThan(20);
    for (const stack of ['local', 'kubernetes']) {
      const config = parse(infraFile(`Pulumi.${stack}.example.yaml`)).config as Record<string, unknown>;
      expect(config['miniqueue:target']).toBe(stack);
      for (const key of Object.keys(config)) expect(readKeys, `${stack}: ${key}`).toContain(key.replace(/^miniqueue:/, ''));
    }
  });

  it('documents every key it reads', () => {
    const readme = infraFile('README.md');
    for (const key of readKeys) expect(readme, key).toContain(`\`${key}\``);
  });
});
