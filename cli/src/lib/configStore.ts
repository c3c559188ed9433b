import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, Failure } from './failure.js';

export interface Profile {
  url: string;
  apiKey: string;
}

export interface ConfigFile {
  /** The profile used when none is named. */
  current?: string;
  profiles: Record<string, Profile>;
}

export const CONFIG_FILE_NAME = 'config.json';

export function configPath(configDir: string): string {
  return path.join(configDir, CONFIG_FILE_NAME);
}

export async function readConfig(file: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw error;
  }
  let parsed: Partial<ConfigFile>;
  try {
    parsed = JSON.parse(text) as Partial<ConfigFile>;
  } catch {
    throw new Failure(`${file} is not valid JSON`, 'Fix it, or delete it and log in again with `miniqueue login`.', EXIT.usage);
  }
  return { current: parsed.current, profiles: parsed.profiles ?? {} };
}

/**
 * The file holds API keys: it is written to a private temporary file and renamed over the old one,
 * so no reader ever sees it half written or with wider permissions than 0600.
 */
export async function writeConfig(file: string, config: ConfigFile): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // The umask can only narrow the mode above; this makes it exactly 0600 whatever the umask.
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}
