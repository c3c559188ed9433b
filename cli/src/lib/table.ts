import { bold, dim } from './style.js';
import { fitColumns } from './tableFit.js';

export interface Column<T> {
  header: string;
  value: (row: T) => string | number;
  align?: 'left' | 'right';
  /** Colours the padded cell; padding first keeps escape codes out of the width. */
  style?: (cell: string, row: T) => string;
  /** Free text (payloads, reasons): at most FREE_TEXT_MAX characters, and cut further, with an ellipsis, to fit the width. */
  shrink?: boolean;
  /** How narrow cutting may make a `shrink` column (default: 12 characters, or its header). */
  minWidth?: number;
  /** Left out to fit the width when cutting is not enough; the highest goes first. */
  drop?: number;
}

/** How a table is printed: aligned text no wider than `width` (Infinity: as wide as it is), or tab-separated. */
export interface Layout {
  format: 'table' | 'tsv';
  width: number;
}

export const FULL_WIDTH: Layout = { format: 'table', width: Infinity };

/** Free text beyond this is cut in a table, however wide; TSV and --json have it whole. */
export const FREE_TEXT_MAX = 60;

/**
 * Rows as aligned text columns with a header, fitted to `layout.width`: free-text columns are cut
 * first, then the least useful columns left out (a last line says which, and that --wide shows
 * them). The last column is not padded. As TSV: header and rows, tab-separated, nothing cut.
 */
export function renderTable<T>(rows: T[], columns: Column<T>[], layout: Layout = FULL_WIDTH): string {
  const all = rows.map((row) => columns.map((column) => String(column.value(row))));
  if (layout.format === 'tsv') return [columns.map((c) => c.header), ...all].map((values) => values.map(tsvCell).join('\t')).join('\n');
  const natural = columns.map((column, i) => {
    const longest = Math.max(column.header.length, ...all.map((row) => row[i]!.length));
    return column.shrink ? Math.min(longest, Math.max(FREE_TEXT_MAX, column.header.length)) : longest;
  });
  const { kept, widths } = fitColumns(columns, natural, layout.width);
  const line = (values: string[], styled: (cell: string, k: number) => string) =>
    kept
      .map((i, k) => {
        const value = cut(values[i]!, widths[k]!);
        const last = k === kept.length - 1;
        const padded = columns[i]!.align === 'right' ? value.padStart(widths[k]!) : last ? value : value.padEnd(widths[k]!);
        return styled(padded, k);
      })
      .join('  ')
      .trimEnd();
  const header = line(
    columns.map((column) => column.header),
    (cell) => bold(cell),
  );
  const body = all.map((values, r) => line(values, (cell, k) => columns[kept[k]!]!.style?.(cell, rows[r]!) ?? cell));
  const left = columns.filter((_, i) => !kept.includes(i)).map((column) => column.header);
  // Short, so that the note itself fits where the table had to be narrowed.
  const note = left.length > 0 ? [dim(`(--wide shows ${left.join(', ')})`)] : [];
  return [header, ...body, ...note].join('\n');
}

function cut(value: string, width: number): string {
  return value.length <= width ? value : `${value.slice(0, Math.max(0, width - 1))}…`;
}

/** A tab or newline inside a value would break the row: they become spaces. */
const tsvCell = (value: string) => value.replace(/[\t\r\n]+/g, ' ');

/** Label-value lines with the values aligned, for one record. */
export function renderPairs(pairs: Array<[string, string]>): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${bold(label.padEnd(width))}  ${value}`).join('\n');
}
