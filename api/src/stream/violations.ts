/** Refused frames a stream may send in a minute before it is closed with CLOSE_PROTOCOL_VIOLATIONS. */
const MAX_VIOLATIONS_PER_MINUTE = 20;
export const CLOSE_PROTOCOL_VIOLATIONS = 4400;
const WINDOW_MS = 60_000;

/** The frames a stream had refused for what its client sent, in the last minute. */
export class Violations {
  private times: number[] = [];

  /** Counts one more; says whether it is one too many (the stream is to be closed). */
  counted(): boolean {
    const now = Date.now();
    this.times = this.times.filter((at) => now - at < WINDOW_MS);
    this.times.push(now);
    return this.times.length > MAX_VIOLATIONS_PER_MINUTE;
  }
}
