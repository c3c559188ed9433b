import { SingleBar } from 'cli-progress';

export interface Progress {
  advance(count: number): void;
  stop(): void;
}

const silent: Progress = { advance: () => undefined, stop: () => undefined };

/**
 * A bar on stderr, so stdout stays clean for results. Forced on where stderr is not a terminal
 * (a log file, CI) it writes a plain line every two seconds instead of redrawing.
 */
export function progressBar(total: number, show: boolean): Progress {
  if (!show) return silent;
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
