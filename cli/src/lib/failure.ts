/** Exit codes scripts can branch on. oclif itself exits 2 on bad usage. */
export const EXIT = {
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
} as const;

/** A failure the user can act on: one line of message, an optional hint, an exit code. */
export class Failure extends Error {
  constructor(
    message: string,
    readonly hint: string | null = null,
    readonly exitCode: number = EXIT.failure,
    /** The broker's HTTP status, 0 when it could not be reached, null when the broker was not asked. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'Failure';
  }

  toJSON(): { status: number | null; message: string; hint: string | null; exit_code: number } {
    return { status: this.status, message: this.message, hint: this.hint, exit_code: this.exitCode };
  }
}
