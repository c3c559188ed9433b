export type SortDirection = 'asc' | 'desc';

export interface Sort<K extends string> {
  key: K;
  direction: SortDirection;
}

/** Rows whose name or topic contains the text (any case); all rows for empty text. */
export function filterByName<T extends { queue: string; topic: string }>(rows: readonly T[], text: string): T[] {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return [...rows];
  return rows.filter((row) => row.queue.toLowerCase().includes(wanted) || row.topic.toLowerCase().includes(wanted));
}

/** Sorted by one value; ties keep name order, so the table does not shuffle as numbers change. */
export function sortRows<T extends { queue: string }>(rows: readonly T[], value: (row: T) => number | string, direction: SortDirection): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const order = typeof x === 'string' || typeof y === 'string' ? String(x).localeCompare(String(y)) : x - y;
    return order !== 0 ? sign * order : a.queue.localeCompare(b.queue);
  });
}

/** A header clicked: the same column turns around; a new one starts with the biggest (names: A first). */
export function nextSort<K extends string>(current: Sort<K>, key: K, textual: boolean): Sort<K> {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: textual ? 'asc' : 'desc' };
}
