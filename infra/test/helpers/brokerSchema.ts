/** The broker's own environment schema (@miniqueue/api's `./config` entry), so deployment wiring cannot drift from it. */
import { envSchema } from '@miniqueue/api/config';

interface KeyDescription {
  flags?: { presence?: string };
  rules?: { name: string; args?: { regex?: string } }[];
}

const described = envSchema.describe() as { keys: Record<string, KeyDescription> };

export const BROKER_ENV_KEYS: string[] = Object.keys(described.keys);

export const REQUIRED_BROKER_ENV_KEYS: string[] = BROKER_ENV_KEYS.filter((key) => described.keys[key].flags?.presence === 'required');

/** The pattern the schema holds for one key, as joi describes it (`/…/`), when it has one. */
export function schemaPattern(key: string): string | undefined {
  return described.keys[key]?.rules?.find((rule) => rule.name === 'pattern')?.args?.regex;
}

export { envSchema };
