import type { MiniQueue, Queue, QueueChanges } from '@miniqueue/sdk';

/** The settings form as typed: text, because an empty retention means "the broker's default". */
export interface SettingsForm {
  ackTimeoutSeconds: string;
  maxRetries: string;
  ackedRetentionHours: string;
}

export const formOf = (queue: Queue): SettingsForm => ({
  ackTimeoutSeconds: String(queue.ack_timeout_seconds),
  maxRetries: String(queue.max_retries),
  ackedRetentionHours: queue.acked_retention_hours === null ? '' : String(queue.acked_retention_hours),
});

export type SettingsProblems = Partial<Record<keyof SettingsForm, string>>;

/** The contract's ranges, checked before sending so each field says what is wrong with it. */
const RANGES: Record<keyof SettingsForm, [number, number, string]> = {
  ackTimeoutSeconds: [1, 43_200, 'seconds'],
  maxRetries: [0, 100, 'retries'],
  ackedRetentionHours: [0, 8_760, 'hours'],
};

function wholeNumber(text: string, [min, max, unit]: [number, number, string]): number | string {
  if (!/^\d+$/.test(text.trim())) return `Enter a whole number of ${unit}.`;
  const value = Number(text);
  return value < min || value > max ? `Between ${min} and ${max} ${unit}.` : value;
}

/**
 * What to send: only the settings that differ from the queue's, so a save changes nothing else.
 * An empty retention is `null` (the broker's default again).
 */
export function settingsChanges(queue: Queue, form: SettingsForm): { changes: QueueChanges; problems: SettingsProblems } {
  const problems: SettingsProblems = {};
  const changes: QueueChanges = {};
  const ack = wholeNumber(form.ackTimeoutSeconds, RANGES.ackTimeoutSeconds);
  if (typeof ack === 'string') problems.ackTimeoutSeconds = ack;
  else if (ack !== queue.ack_timeout_seconds) changes.ackTimeoutSeconds = ack;
  const retries = wholeNumber(form.maxRetries, RANGES.maxRetries);
  if (typeof retries === 'string') problems.maxRetries = retries;
  else if (retries !== queue.max_retries) changes.maxRetries = retries;
  const retention = form.ackedRetentionHours.trim() === '' ? null : wholeNumber(form.ackedRetentionHours, RANGES.ackedRetentionHours);
  if (typeof retention === 'string') problems.ackedRetentionHours = retention;
  else if (retention !== queue.acked_retention_hours) changes.ackedRetentionHours = retention;
  return { changes, problems };
}

export const loadQueue = (mq: MiniQueue, queue: string, signal: AbortSignal): Promise<Queue> => mq.queues.get(queue, { signal });

export const saveSettings = (mq: MiniQueue, queue: string, changes: QueueChanges): Promise<Queue> => mq.queues.update(queue, changes);
