#!/usr/bin/env node
// Regenerates src/generated/ from ../openapi.yaml with openapi-generator (typescript-fetch).
// The output is committed; `npm run gen:check` fails when it differs from what this writes.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, statSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const config = JSON.parse(readFileSync(join(sdkDir, 'openapitools.json'), 'utf8'))['generator-cli'];
const version = config.version;
const jar = join(sdkDir, config.storageDir, `${version}.jar`);
const wrapper = createRequire(import.meta.url).resolve('@openapitools/openapi-generator-cli/main.js');
const output = join(sdkDir, 'src', 'generated');

// Options of the typescript-fetch generator. importFileExtension makes the relative imports
// resolvable under NodeNext/ESM; `original` keeps the contract's snake_case field names.
const additionalProperties = {
  supportsES6: 'true',
  importFileExtension: '.js',
  modelPropertyNaming: 'original',
  hideGenerationTimestamp: 'true',
};

function run(command, args, { quiet = false } = {}) {
  // The wrapper resolves openapitools.json against $PWD, not the process cwd.
  const result = spawnSync(command, args, {
    cwd: sdkDir,
    env: { ...process.env, PWD: sdkDir },
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
  });
  if (result.error) return { ok: false, detail: result.error.message };
  return { ok: result.status === 0, detail: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

const jarPresent = () => existsSync(jar) && statSync(jar).size > 1_000_000;

function fetchWithWrapper() {
  // `version` makes the wrapper download the pinned jar into storageDir.
  return run(process.execPath, [wrapper, 'version'], { quiet: true });
}

function fetchWithMaven() {
  const target = dirname(jar);
  mkdirSync(target, { recursive: true });
  const artifact = `org.openapitools:openapi-generator-cli:${version}`;
  const result = run('mvn', ['-q', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${target}`], { quiet: true });
  const copied = join(target, `openapi-generator-cli-${version}.jar`);
  if (result.ok && existsSync(copied)) renameSync(copied, jar);
  return result;
}

function ensureJar() {
  if (jarPresent()) return;
  console.log(`Fetching openapi-generator-cli ${version} ...`);
  const attempts = [fetchWithWrapper, fetchWithMaven];
  const failures = [];
  for (const attempt of attempts) {
    if (jarPresent()) break;
    rmSync(jar, { force: true }); // a partial download must not pass for the jar
    const result = attempt();
    if (!jarPresent()) failures.push(`${attempt.name}: ${result.detail.trim().slice(-500)}`);
  }
  if (!jarPresent()) {
    console.error(`Could not fetch openapi-generator-cli ${version}:\n${failures.join('\n')}`);
    process.exit(1);
  }
}

ensureJar();
// Start from an empty folder so an operation or schema removed from the contract leaves no file behind.
rmSync(output, { recursive: true, force: true });
const generated = run(
  process.execPath,
  [
    wrapper,
    'generate',
    '--input-spec',
    '../openapi.yaml',
    '--generator-name',
    'typescript-fetch',
    '--output',
    'src/generated',
    // Our own file header (templates/README.md says why); every other template is the generator's.
    '--template-dir',
    'templates',
    '--global-property',
    'apiDocs=false,modelDocs=false',
    // `exists` (a header filter's condition) is a reserved word to the generator, which would name the
    // field `_exists`; as a quoted property name it is valid TypeScript, so keep the contract's name.
    '--reserved-words-mappings',
    'exists=exists',
    '--additional-properties',
    Object.entries(additionalProperties)
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
  ],
  { quiet: true },
);
if (!generated.ok) {
  console.error(generated.detail);
  process.exit(1);
}
console.log(`Generated src/generated from openapi.yaml (openapi-generator ${version}, typescript-fetch).`);
