import { toConfiguredId, type Hook } from '@oclif/core';
import { closest } from '../lib/closest.js';
import { bold, red } from '../lib/style.js';

/** The shell's code for "command not found", as @oclif/plugin-not-found uses. */
const NOT_FOUND = 127;

/**
 * At a terminal, @oclif/plugin-not-found asks "Did you mean …?" and runs the answer. Elsewhere
 * (scripts, CI) it only says the command does not exist; the suggestion is printed here instead,
 * in the Error/Hint form of every other failure.
 */
const hook: Hook.CommandNotFound = async function (options) {
  if (process.stdin.isTTY && process.stderr.isTTY) {
    const { default: ask } = await import('@oclif/plugin-not-found');
    return ask.call(this, options);
  }
  const visible = options.config.commands.filter((command) => !command.hidden);
  const ids = visible.flatMap((command) => [command.id, ...command.aliases]);
  const typed = toConfiguredId(options.id, options.config);
  const suggestion = closest(options.id, ids);
  const bin = options.config.bin;
  process.stderr.write(`${red(bold('Error:'))} ${typed} is not a ${bin} command.\n`);
  const didYouMean = suggestion ? `Did you mean \`${bin} ${toConfiguredId(suggestion, options.config)}\`? ` : '';
  process.stderr.write(`${bold('Hint:')} ${didYouMean}\`${bin} help\` lists every command.\n`);
  this.exit(NOT_FOUND);
};

export default hook;
