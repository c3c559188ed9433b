import { bold } from './style.js';

export interface Column<T> {
  header: string;
  value: (row: T) => string | number;
  align?: 'left' | 'right';
  /** Colours the padded cell; padding first keeps escape codes out of the width. */
  style?: (cell: string, row: T) => string;
}

/** Rows as aligned text columns with a header; the last column is not padded. */
export function renderTable<T>(rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((row) => columns.map((column) => String(column.value(row))));
  const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[], styled: (cell: string, i: number) => string) =>
    values
      .map((value, i) => {
        const last = i === values.length - 1;
        const padded = columns[i].align === 'right' ? value.padStart(widths[i]) : last ? value : value.padEnd(widths[i]);
        return styled(padded, i);
      })
      .join('  ')
      .trimEnd();
  const header = line(
    columns.map((column) => column.header),
    (cell) => bold(cell),
  );
  const body = cells.map((values, r) => line(values, (cell, i) => columns[i].style?.(cell, rows[r]) ?? cell));
  return [header, ...body].join('\n');
}

/** Label-value lines with the values aligned, for one record. */
export function renderPairs(pairs: Array<[string, string]>): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${bold(label.padEnd(width))}  ${value}`).join('\n');
}
