/** What fitting needs to know of a column. */
export interface FitColumn {
  header: string;
  shrink?: boolean;
  /** A cut column's floor while other columns can still be left out, where MIN_CUT_WIDTH would leave too little of it (a dead letter's reason). */
  minWidth?: number;
  drop?: number;
}

/** A cut column keeps at least this much (or its header), so what is left still says something. */
const MIN_CUT_WIDTH = 12;
const GAP = 2;

const totalOf = (widths: number[]) => widths.reduce((sum, w) => sum + w, 0) + GAP * Math.max(0, widths.length - 1);

/**
 * Which columns to print, and how wide, for a table to fit `width`: the widest free-text column
 * is narrowed first, a character at a time, down to its floor; when that is not enough, the
 * column with the highest `drop` is left out and the narrowing starts again. Floors are first a
 * column's `minWidth`; only a table that cannot fit with them even when every droppable column is
 * left out is fitted again with the plain floor. A table that cannot fit even so is printed with
 * what is left, wider than asked.
 */
export function fitColumns(columns: FitColumn[], natural: number[], width: number): { kept: number[]; widths: number[] } {
  const preferred = fitWithFloors(columns, natural, width, (column) => column.minWidth ?? MIN_CUT_WIDTH);
  if (totalOf(preferred.widths) <= width) return preferred;
  return fitWithFloors(columns, natural, width, () => MIN_CUT_WIDTH);
}

function fitWithFloors(columns: FitColumn[], natural: number[], width: number, floorOf: (column: FitColumn) => number): { kept: number[]; widths: number[] } {
  let kept = columns.map((_, i) => i);
  for (;;) {
    const widths = narrowed(
      kept.map((i) => columns[i]!),
      kept.map((i) => natural[i]!),
      width,
      floorOf,
    );
    if (totalOf(widths) <= width) return { kept, widths };
    const droppable = kept.filter((i) => columns[i]!.drop !== undefined);
    if (droppable.length === 0) return { kept, widths };
    const next = droppable.reduce((a, b) => (columns[b]!.drop! > columns[a]!.drop! ? b : a));
    kept = kept.filter((i) => i !== next);
  }
}

function narrowed(columns: FitColumn[], natural: number[], width: number, floorOf: (column: FitColumn) => number): number[] {
  const widths = [...natural];
  const floor = columns.map((column, i) => (column.shrink ? Math.min(natural[i]!, Math.max(floorOf(column), column.header.length)) : natural[i]!));
  while (totalOf(widths) > width) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) if (widths[i]! > floor[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    if (widest < 0) break;
    widths[widest]!--;
  }
  return widths;
}
