/** Recognisable secret values for program runs, and the check that none leaks in plain text. */
import { expect } from 'vitest';
import { strings, type ProgramRun } from './pulumiProgram.js';

export const SECRET_VALUES = {
  bootstrapAdminKey: `mq_${'AdminKeyMaterial0'.repeat(3)}`,
  postgresPassword: 'pg-password-3f9a7c',
  grafanaAdminPassword: 'grafana-password-81d2e0',
  githubClientSecret: 'github-secret-5b6c4d',
  // 32 bytes in base64url, as the broker requires: 43 characters.
  pushSecretKey: `${'PushKeyMaterial0'.repeat(2)}_abcdefghij`,
  databaseUrl: 'postgres://mq:managed-db-password-77ae@db.example.net:5432/mq?sslmode=require',
} as const;

/** No resource input holds a secret value (or a string containing one) outside a Pulumi secret. */
export function expectNoPlainSecrets(run: ProgramRun, secrets: string[]): void {
  const leaks = run.resources.flatMap((resource) =>
    strings(resource.inputs)
      .filter((s) => !s.secret && secrets.some((secret) => s.text.includes(secret)))
      .map((s) => `${resource.type} ${resource.name} ${s.path}`),
  );
  expect(leaks).toEqual([]);
}

/** The values do reach the resources, wrapped as secrets (so the check above is not vacuous). */
export function expectWrappedSecrets(run: ProgramRun, secrets: string[]): void {
  const wrapped = run.resources.flatMap((resource) =>
    strings(resource.inputs)
      .filter((s) => s.secret)
      .map((s) => s.text),
  );
  for (const secret of secrets)
    expect(
      wrapped.some((text) => text.includes(secret)),
      secret,
    ).toBe(true);
}

/** Stack outputs are printed by `pulumi up`: none may carry a secret. */
export function expectOutputsFree(run: ProgramRun, secrets: string[]): void {
  const text = JSON.stringify(run.outputs);
  for (const secret of secrets) expect(text).not.toContain(secret);
}
