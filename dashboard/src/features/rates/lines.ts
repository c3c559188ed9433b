import type { ChartLine } from './components/RateChart';

/** The lines every rate chart draws: what came in, what went out, what was done with. */
export const PUBLISHED: ChartLine = {
  field: 'published',
  label: 'Published',
  stroke: 'stroke-indigo-500',
  swatch: 'bg-indigo-500',
  meaning: 'Messages published to topics, each counted once however many queues it went to',
};
export const ENQUEUED: ChartLine = {
  field: 'enqueued',
  label: 'Copies stored',
  stroke: 'stroke-violet-400',
  swatch: 'bg-violet-400',
  meaning: 'Copies stored in queues: a publish to a topic with 3 queues stores 3',
};
export const DELIVERED: ChartLine = {
  field: 'delivered',
  label: 'Delivered',
  stroke: 'stroke-sky-500',
  swatch: 'bg-sky-500',
  meaning: 'Messages claimed by consumers',
};
export const ACKED: ChartLine = {
  field: 'acked',
  label: 'Acked',
  stroke: 'stroke-emerald-500',
  swatch: 'bg-emerald-500',
  meaning: 'Messages acknowledged by consumers',
};
export const DEAD: ChartLine = {
  field: 'dead',
  label: 'Dead',
  stroke: 'stroke-rose-500',
  swatch: 'bg-rose-500',
  meaning: 'Messages moved to the dead-letter queue',
};
