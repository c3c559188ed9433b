import { BadRequestError, type HeaderFilter, type MiniQueue, type Queue, type QueueChanges } from '@miniqueue/sdk';
import { filterOf } from '../../topics/api/topology';
import { gateChanges, gateFormOf, gatesEdited, type GateForm } from './gateSettings';
import { boundsChanges, boundsEdited, boundsFormOf, type BoundsForm } from './boundSettings';
import { expiryChanges, expiryEdited, expiryFormOf, type ExpiryForm } from './expirySettings';
import { fairnessChanges, fairnessEdited, fairnessFormOf, type FairnessForm } from './fairnessSettings';
import { attentionChanges, attentionEdited, attentionFormOf, type AttentionField, type AttentionForm } from './attentionSettings';

/** The settings form as typed: text, because an empty retention means "the broker's default" and an empty filter "no filter". */
export interface SettingsForm extends GateForm, BoundsForm, ExpiryForm, FairnessForm, AttentionForm {
  ackTimeoutSeconds: string;
  maxRetries: string;
  ackedRetentionHours: string;
  filter: string;
  requireOrderingKey: boolean;
}

type NumberField = 'ackTimeoutSeconds' | 'maxRetries' | 'ackedRetentionHours';
type TextField =
  | NumberField
  | 'filter'
  | 'maxDeliveriesPerSecond'
  | 'maxMessages'
  | 'maxBytes'
  | 'messageTtlSeconds'
  | 'deadLetterTopic'
  | 'maxInFlightPerKey'
  | AttentionField;

/** A filter as people read it: pretty JSON, or nothing. */
export const filterText = (filter: HeaderFilter | undefined): string => (filter ? JSON.stringify(filter, null, 2) : '');

export const formOf = (queue: Queue): SettingsForm => ({
  ackTimeoutSeconds: String(queue.ack_timeout_seconds),
  maxRetries: String(queue.max_retries),
  ackedRetentionHours: queue.acked_retention_hours === null ? '' : String(queue.acked_retention_hours),
  filter: filterText(queue.filter),
  requireOrderingKey: queue.require_ordering_key,
  ...gateFormOf(queue),
  ...boundsFormOf(queue),
  ...expiryFormOf(queue),
  ...fairnessFormOf(queue),
  ...attentionFormOf(queue),
});

/** Edited at all, valid or not: saving an invalid value says what is wrong with it. */
export function isEdited(queue: Queue, form: SettingsForm): boolean {
  const initial = formOf(queue);
  const texts: TextField[] = ['ackTimeoutSeconds', 'maxRetries', 'ackedRetentionHours', 'filter'];
  return (
    texts.some((field) => form[field].trim() !== initial[field]) ||
    form.requireOrderingKey !== initial.requireOrderingKey ||
    gatesEdited(queue, form) ||
    boundsEdited(queue, form) ||
    expiryEdited(queue, form) ||
    fairnessEdited(queue, form) ||
    attentionEdited(queue, form)
  );
}

export type SettingsProblems = Partial<Record<TextField, string>>;

/** The contract's ranges, checked before sending so each field says what is wrong with it. */
const RANGES: Record<NumberField, [number, number, string]> = {
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
 * An empty retention is `null` (the broker's default again); an empty filter is `null` (no filter).
 * A filter that is the same JSON as the queue's, however laid out, is not sent.
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
  const filter = filterOf(form.filter);
  if (filter.problem) problems.filter = filter.problem;
  else if (JSON.stringify(filter.filter ?? null) !== JSON.stringify(queue.filter ?? null)) changes.filter = filter.filter ?? null;
  if (form.requireOrderingKey !== queue.require_ordering_key) changes.requireOrderingKey = form.requireOrderingKey;
  const gates = gateChanges(queue, form);
  if (gates.problem) problems.maxDeliveriesPerSecond = gates.problem;
  Object.assign(changes, gates.changes);
  boundsChanges(queue, form, changes, problems);
  expiryChanges(queue, form, changes, problems);
  fairnessChanges(queue, form, changes, problems);
  attentionChanges(queue, form, changes, problems);
  return { changes, problems };
}

/** The broker's names for the form's fields, so its 400 is shown next to the field it is about. */
const FIELD_OF: Record<string, TextField> = {
  ack_timeout_seconds: 'ackTimeoutSeconds',
  max_retries: 'maxRetries',
  acked_retention_hours: 'ackedRetentionHours',
  filter: 'filter',
  max_deliveries_per_second: 'maxDeliveriesPerSecond',
  max_messages: 'maxMessages',
  max_bytes: 'maxBytes',
  message_ttl_seconds: 'messageTtlSeconds',
  dead_letter_topic: 'deadLetterTopic',
  max_in_flight_per_key: 'maxInFlightPerKey',
  'attention.oldest_pending_seconds': 'attentionOldestPendingSeconds',
  'attention.backlog_growth': 'attentionBacklogGrowth',
  'attention.dead_per_minute': 'attentionDeadPerMinute',
};

/** A 400's field problems by form field (`filter.or[0]` belongs to the filter); empty for any other failure. */
export function brokerProblems(error: unknown): SettingsProblems {
  const problems: SettingsProblems = {};
  if (!(error instanceof BadRequestError)) return problems;
  for (const { field, message } of error.errors ?? []) {
    const own = FIELD_OF[field] ?? FIELD_OF[field.split(/[.[]/)[0] ?? ''];
    if (own) problems[own] = message;
  }
  return problems;
}

export const loadQueue = (mq: MiniQueue, queue: string, signal: AbortSignal): Promise<Queue> => mq.queues.get(queue, { signal });

export const saveSettings = (mq: MiniQueue, queue: string, changes: QueueChanges): Promise<Queue> => mq.queues.update(queue, changes);
