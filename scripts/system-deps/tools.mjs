// The system programs the test suites run, and the Debian package that brings each one.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** True when `file` exists and may be executed by this process. */
export function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on `PATH`, or undefined. */
export function onPath(name, path = process.env.PATH ?? '') {
  return path.split(delimiter).filter(Boolean).map((dir) => join(dir, name)).find(isExecutable);
}

/**
 * promtool: infra's tests check prometheus/ with it. Chromium: the dashboard's and the SDK's
 * browser tests drive it at CHROMIUM_PATH (default /usr/bin/chromium, Debian's package).
 */
export function requiredTools(env = process.env) {
  return [
    { name: 'promtool', debianPackage: 'prometheus', present: () => Boolean(onPath('promtool', env.PATH)) },
    { name: 'chromium', debianPackage: 'chromium', present: () => isExecutable(env.CHROMIUM_PATH ?? '/usr/bin/chromium') },
  ];
}
