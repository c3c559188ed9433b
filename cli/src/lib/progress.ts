export interface Progress {
  advance(count: number): void;
  stop(): void;
}

const silent: Progress = { advance: () => undefined, stop: () => undefined };

/**
 * A bar on stderr, so stdout stays clean for results. Forced on where stderr is not a terminal
 * (a log file, CI) it writes a plain line every two seconds instead of redrawing.
 */
export async function progressBar(total: number, show: boolean): Promise<Progress> {
  if (!show) return silent;
  // Loaded on use: every command module is loaded at start-up, and only a shown bar needs it.
  const { SingleBar } = await import('cli-progress');
  const bar = new SingleBar({
    format: 'publishing |{bar}| {value}/{total} messages | {percentage}% | {eta_formatted} left',
    stream: process.stderr,
    noTTYOutput: true,
    hideCursor: true,
    barsize: 30,
  });
  bar.start(total, 0);
  return { advance: (count) => bar.increment(count), stop: () => bar.stop() };
}
