export interface Interrupt {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * Ctrl-C ends a long-running command cleanly: the first one aborts the signal so the command can
 * finish what it holds (ack a message, close a socket) and exit 0; a second one exits at once.
 */
export function onInterrupt(): Interrupt {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(130);
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
