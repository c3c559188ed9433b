import { dim } from './style.js';

export interface Waiting {
  /** Takes the line away (on a terminal); safe to call more than once. */
  done(): void;
}

const TICK_MS = 1000;

/**
 * Says on stderr that the command is waiting, so a silent terminal is not mistaken for a hung
 * one. On a terminal it is one line, counting down `seconds` when given, erased when done; piped,
 * it is one plain line, so logs show what the command was doing.
 */
export function showWaiting(text: string, seconds?: number, stream: NodeJS.WriteStream = process.stderr): Waiting {
  if (!stream.isTTY) {
    stream.write(`${text}${seconds === undefined ? '' : ` (up to ${seconds} s)`}…\n`);
    return { done: () => undefined };
  }
  const started = Date.now();
  const render = () => {
    const left = seconds === undefined ? '' : `, ${Math.max(0, Math.ceil(seconds - (Date.now() - started) / 1000))} s left`;
    stream.write(`\r\x1b[K${dim(`${text}… (Ctrl-C stops${left})`)}`);
  };
  render();
  const timer = setInterval(render, TICK_MS).unref();
  let shown = true;
  return {
    done: () => {
      clearInterval(timer);
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
