import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

const OWNER_ONLY = 0o600;

/**
 * Writes the first-start admin key so that only its owner can read it, whatever was there:
 * `writeFile(…, { mode })` applies the mode only to a file it creates, so a leftover 0644
 * `admin-key` stayed world-readable. The file is opened without following a symbolic link (which
 * could point the key anywhere), made 0600 before the key is written, then filled.
 */
export async function saveAdminKey(file: string, key: string): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;
  const handle = await open(file, flags, OWNER_ONLY).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') throw new Error(`Refusing to write the admin key to ${file}: it is a symbolic link`);
    throw new Error(`Could not write the admin key to ${file}: ${error.message}`);
  });
  try {
    await handle.chmod(OWNER_ONLY).catch((error: Error) => {
      throw new Error(`Could not make ${file} readable only by its owner (mode 0600): ${error.message}`);
    });
    await handle.truncate(0);
    await handle.writeFile(`${key}\n`);
  } finally {
    await handle.close();
  }
}
