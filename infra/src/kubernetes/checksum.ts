import { createHash } from 'node:crypto';

/** A short digest of config contents, put on a pod template so that a change rolls the pods. */
export function configChecksum(...contents: string[]): string {
  const hash = createHash('sha256');
  for (const content of contents) hash.update(content).update('\0');
  return hash.digest('hex').slice(0, 16);
}
