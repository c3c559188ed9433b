export interface Interrupt {
  signal: AbortSignal;
  dispose(): void;
}

/** The shell's convention for a command ended by a signal: 128 + its number. */
const EXIT_ON: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Ctrl-C ends a long-running command cleanly: the first one aborts the signal so the command can
 * finish what it holds (ack a message, close a socket); a second one exits at once. Either way
 * the command exits 130 (143 for SIGTERM), as the shell reports an interrupted program, so a
 * script can tell a stop by hand from a run that finished.
 */
export function onInterrupt(): Interrupt {
  const controller = new AbortController();
  const handler = (name: 'SIGINT' | 'SIGTERM') => {
    if (controller.signal.aborted) process.exit(EXIT_ON[name]);
    process.exitCode = EXIT_ON[name];
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
