import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const repoPath = (path: string) => `${REPO_ROOT}${path}`;
export const repoFile = (path: string) => readFileSync(repoPath(path), 'utf8');
export const repoYaml = (path: string): any => parse(repoFile(path));
export const repoHas = (path: string) => existsSync(repoPath(path));
