import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where one program publishes, and the queue bound to it that it consumes and acks from. */
export interface Target {
  url: string;
  apiKey: string;
  topic: string;
  queue: string;
}

export interface ScratchProject {
  name: string;
  dir: string;
  /** TypeScript projects are type-checked and compiled with tsc first. */
  typescript: boolean;
  /** The file node runs. */
  entry: string;
}

/** Publish, consume, ack; prints what happened as one JSON line. The same in every flavour. */
const body = (t: Target, payload: string) => `
  const mq = new MiniQueue({ url: ${JSON.stringify(t.url)}, apiKey: ${JSON.stringify(t.apiKey)} });
  const published = await mq.publish(${JSON.stringify(t.topic)}, ${JSON.stringify(payload)});
  const message = await mq.consume(${JSON.stringify(t.queue)}, { waitSeconds: 5 });
  if (!message) throw new Error('nothing to consume');
  const acked = await mq.ack(message.message_id);
  console.log(JSON.stringify({ published: published.message_ids[0], consumed: message.message_id, payload: message.payload, acked }));
`;

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Strict, and checking the package's own declarations too (no skipLibCheck). */
const tsconfig = (module: 'nodenext' | 'node16') =>
  json({
    compilerOptions: { module, moduleResolution: module, target: 'es2022', strict: true, skipLibCheck: false, types: [], outDir: 'out' },
    files: ['main.ts'],
  });

async function write(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
}

/**
 * Four consumers of the installed SDK, in folders under `root` (where it is installed): TypeScript
 * as ES modules (module nodenext), TypeScript as CommonJS (module node16, the setup that reported
 * TS1479 against an ES-module-only package), and plain JavaScript with import and with require.
 */
export async function writeScratchProjects(root: string, targets: Record<string, Target>): Promise<ScratchProject[]> {
  const projects: ScratchProject[] = [];
  const add = async (name: string, typescript: boolean, entry: string, files: Record<string, string>) => {
    const dir = path.join(root, name);
    await write(dir, files);
    projects.push({ name, dir, typescript, entry });
  };
  const t = (name: string) => targets[name]!;
  await add('ts-esm', true, 'out/main.js', {
    'package.json': json({ type: 'module' }),
    'tsconfig.json': tsconfig('nodenext'),
    'main.ts': `import { MiniQueue, type Message } from '@miniqueue/sdk';\nconst typed: Message | null = null;\nvoid typed;\n${body(t('ts-esm'), 'from ts-esm')}`,
  });
  await add('ts-cjs', true, 'out/main.js', {
    'package.json': json({ type: 'commonjs' }),
    'tsconfig.json': tsconfig('node16'),
    'main.ts': `import { MiniQueue, type Message } from '@miniqueue/sdk';\nconst typed: Message | null = null;\nvoid typed;\nasync function main(): Promise<void> {${body(t('ts-cjs'), 'from ts-cjs')}}\nvoid main().catch((error: unknown) => { console.error(error); throw error; });\n`,
  });
  await add('js-import', false, 'main.mjs', {
    'main.mjs': `import { MiniQueue } from '@miniqueue/sdk';\n${body(t('js-import'), 'from js-import')}`,
  });
  await add('js-require', false, 'main.cjs', {
    'main.cjs': `const { MiniQueue } = require('@miniqueue/sdk');\n(async () => {${body(t('js-require'), 'from js-require')}})();\n`,
  });
  return projects;
}
