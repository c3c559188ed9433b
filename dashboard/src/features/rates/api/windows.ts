/** A span a chart can show, with the bucket length that draws it in a few hundred points. */
export interface ChartWindow {
  id: '5m' | '1h' | '24h';
  label: string;
  seconds: number;
  resolution: number;
  /** The left end of the axis, in words. */
  start: string;
  /** "the last hour", for the chart's summary. */
  phrase: string;
}

/**
 * 5-second buckets are the broker's own; an hour in 10-second steps is 360 points; a day is read
 * from per-minute totals (the broker answers windows over an hour in whole minutes) in 5-minute steps.
 */
export const CHART_WINDOWS: readonly ChartWindow[] = [
  { id: '5m', label: '5 min', seconds: 300, resolution: 5, start: '5 min ago', phrase: 'the last 5 minutes' },
  { id: '1h', label: '1 h', seconds: 3600, resolution: 10, start: '60 min ago', phrase: 'the last hour' },
  { id: '24h', label: '24 h', seconds: 86_400, resolution: 300, start: '24 h ago', phrase: 'the last 24 hours' },
];

export const DEFAULT_WINDOW = CHART_WINDOWS[1];

/** What each refresh asks for: the last few buckets (at least 30 s), which replace the chart's by their start. */
export const refreshSecondsOf = (window: ChartWindow): number => Math.max(30, 2 * window.resolution);
