import { Flags } from '@oclif/core';
import { confirm } from './prompt.js';

/** The flag of every command that destroys something. */
export const yesFlag = Flags.boolean({ char: 'y', aliases: ['force'], summary: 'Do not ask for confirmation (also --force).' });

/** Said in the help of every command that destroys something. */
export const ASKS_FIRST = 'Asks for confirmation unless --yes is given (required when not in a terminal).';

export interface Destruction<T> {
  /** Asked on the terminal, answered y or N. */
  question: string;
  /** Printed when the answer is no; nothing is done, and that is no failure. */
  declined: string;
  /** The command's result when the answer is no, so --json says what (did not) happen. */
  untouched: T;
  act: () => Promise<T>;
}

/**
 * Asks first unless `yes`; without a terminal and without --yes it refuses (exit 2), so a script
 * never destroys by accident and never hangs on a question.
 */
export async function confirmThenAct<T>(command: { log(message?: string): void }, yes: boolean | undefined, destruction: Destruction<T>): Promise<T> {
  if (!yes && !(await confirm(destruction.question))) {
    command.log(destruction.declined);
    return destruction.untouched;
  }
  return destruction.act();
}
