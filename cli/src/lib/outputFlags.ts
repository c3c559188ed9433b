import { Flags } from '@oclif/core';
import { FULL_WIDTH, type Layout } from './table.js';

/** `-o table|tsv|json` and `--wide`, for the commands that print a table. */
export const outputFlags = {
  output: Flags.option({
    char: 'o',
    options: ['table', 'tsv', 'json'] as const,
    summary: 'table: aligned, fitted to the terminal (default); tsv: tab-separated, for cut and awk; json: as --json.',
  })(),
  wide: Flags.boolean({ summary: 'Print every column, however wide the terminal (free text still stops at 60 characters; -o tsv has it whole).' }),
};

/**
 * The terminal's width when stdout is one, else $COLUMNS when set, else no limit: output piped
 * to a file or another program is not cut.
 */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout): number {
  if (stream.isTTY && stream.columns) return stream.columns;
  const columns = Number(process.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : Infinity;
}

export function layoutOf(flags: { output?: 'table' | 'tsv' | 'json'; wide?: boolean }): Layout {
  if (flags.output === 'tsv') return { format: 'tsv', width: Infinity };
  return flags.wide ? FULL_WIDTH : { format: 'table', width: terminalWidth() };
}
