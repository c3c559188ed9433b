/**
 * The Dockerfile, checked for what the deployment relies on (no engine runs here to build it).
 */
import { describe, expect, it } from 'vitest';
import { repoFile, repoHas } from '../helpers/repo.js';

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Instructions with continuation lines joined, comments dropped, grouped by stage. */
function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: rest.replace(/\s+/g, ' ') };
    if (instruction.keyword === 'FROM') {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(instruction.args) ?? [];
      stages.push({ from: image.replace(/\$\{(\w+)\}/g, (_, arg) => args[arg] ?? ''), name, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [name, value] = instruction.args.split('=');
      args[name] = value;
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { args, stages };
}

const { stages } = parseDockerfile(repoFile('Dockerfile'));
const runtime = stages.at(-1)!;
const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

describe('Dockerfile', () => {
  it('is multi-stage, on Node 20 slim, with the runtime stage last', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.from).toBe('node:20-bookworm-slim');
    expect(runtime.name).toBe('runtime');
  });

  it('builds the SDK and the dashboard when they have a build', () => {
    const runs = stages.flatMap((stage) => all(stage, 'RUN')).join('\n');
    expect(runs).toContain('npm run build --workspace @miniqueue/sdk --if-present');
    expect(runs).toContain('npm run build --workspace @miniqueue/dashboard --if-present');
  });

  it("installs only the api's runtime dependencies into the final image", () => {
    const runs = stages.flatMap((stage) => all(stage, 'RUN')).join('\n');
    expect(runs).toMatch(/npm ci --omit=dev --workspace @miniqueue\/api/);
    expect(all(runtime, 'RUN')).toEqual([]);
  });

  it('runs as the unprivileged node user', () => {
    const users = all(runtime, 'USER');
    expect(users.at(-1)).toBe('node');
    const lastUser = runtime.instructions.map((i) => i.keyword).lastIndexOf('USER');
    expect(runtime.instructions.slice(lastUser).some((i) => i.keyword === 'RUN')).toBe(false);
  });

  it('checks its health on /actuator/health', () => {
    const [healthcheck] = all(runtime, 'HEALTHCHECK');
    expect(healthcheck).toContain('/actuator/health');
    expect(healthcheck).toMatch(/CMD/);
  });

  it('starts the broker with node itself, so SIGTERM reaches its graceful shutdown', () => {
    expect(all(runtime, 'CMD')).toEqual(['["node", "--enable-source-maps", "api/dist/start.js"]']);
    expect(all(runtime, 'ENTRYPOINT')).toEqual([]);
  });

  it('ships what the broker reads at run time: compiled JavaScript, migrations, the contracts, the dashboard', () => {
    const copies = all(runtime, 'COPY').join('\n');
    for (const path of ['api/dist', 'api/migrations', 'openapi.yaml', 'asyncapi.yaml', 'api/package.json', 'dashboard/dist']) expect(copies).toContain(path);
    // TypeScript sources are compiled in the build stage, never run.
    expect(copies).not.toMatch(/api\/src/);
  });

  it('copies from the build context only paths that exist', () => {
    const sources = stages
      .flatMap((stage) => all(stage, 'COPY'))
      .filter((args) => !args.includes('--from='))
      .flatMap((args) =>
        args
          .split(' ')
          .filter((word) => !word.startsWith('--'))
          .slice(0, -1),
      );
    expect(sources.length).toBeGreaterThan(5);
    for (const source of sources) expect(repoHas(source), source).toBe(true);
  });

  it('takes configuration from the environment only: no credentials baked in', () => {
    const baked = stages.flatMap((stage) => [...all(stage, 'ENV'), ...all(stage, 'ARG')]).join(' ');
    for (const name of ['DATABASE_URL', 'MINIQUEUE_BOOTSTRAP_ADMIN_KEY', 'GITHUB_CLIENT_SECRET', 'PASSWORD']) expect(baked).not.toContain(name);
  });

  it('keeps dependencies, secrets and git out of the build context', () => {
    const ignored = repoFile('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    for (const entry of ['**/node_modules', '.git', '.env']) expect(ignored).toContain(entry);
  });
});
