// What to do about missing system programs: nothing, install them, or stop with one line.

/**
 * @param {{ missing: {name: string, debianPackage: string}[], isRoot: boolean, hasAptGet: boolean }} facts
 * @returns {{ action: 'none' } | { action: 'install', packages: string[] } | { action: 'stop', message: string }}
 */
export function plan({ missing, isRoot, hasAptGet }) {
  if (missing.length === 0) return { action: 'none' };
  const packages = missing.map((tool) => tool.debianPackage);
  if (isRoot && hasAptGet) return { action: 'install', packages };
  return { action: 'stop', message: stopMessage(missing) };
}

/** One line: the programs, and the command that installs them on Debian or Ubuntu. */
export function stopMessage(missing) {
  const names = missing.map((tool) => tool.name).join(' and ');
  const packages = missing.map((tool) => tool.debianPackage).join(' ');
  return `The tests need ${names}: install them (Debian/Ubuntu: sudo apt-get install -y --no-install-recommends ${packages}) and run npm test again.`;
}
