/**
 * A message copy's group key, as every statement that stores one gives it: only a queue with
 * fairness by_key keeps one (the given group key, else the ordering key, else the empty key all
 * the others share); NULL elsewhere, which keeps the copy out of the fair claim's indexes
 * (migration 0022). `queue` is the alias of the copy's queue row.
 */
export const GROUP_KEY = (queue: string, groupKey: string, orderingKey: string) =>
  `CASE WHEN ${queue}.fairness = 'by_key' THEN coalesce(${groupKey}, ${orderingKey}, '') END`;
