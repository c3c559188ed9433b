// Where oclif finds the commands. The package ships them compiled, in dist/commands (package.json).
// A checkout (src/ beside bin/) runs the TypeScript in src/commands through tsx instead, so no build
// is needed: oclif's own TypeScript lookup cannot load it here (its tsx registration fails, then it
// wants ts-node), so the commands directory is given to it directly.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CLI_ROOT = fileURLToPath(new URL('..', import.meta.url));

let checkout;

/** `loadOptions` for oclif's `execute` and `run`. */
export async function oclifOptions() {
  if (!existsSync(new URL('../src/commands', import.meta.url))) return { root: CLI_ROOT };
  checkout ??= (async () => {
    const { register } = await import('tsx/esm/api');
    register();
    const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const hooks = Object.fromEntries(Object.entries(pjson.oclif.hooks ?? {}).map(([event, hook]) => [event, hook.replace('./dist/', './src/')]));
    return { root: CLI_ROOT, pjson: { ...pjson, oclif: { ...pjson.oclif, commands: './src/commands', hooks } } };
  })();
  return checkout;
}
