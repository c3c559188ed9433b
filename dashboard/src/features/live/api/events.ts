import type { MonitorEvent } from '@miniqueue/sdk';

/** The most events the feed keeps; older ones fall off the end. */
export const FEED_LIMIT = 50;

/** Newest first, capped: the feed as it is shown. */
export function appendToFeed(feed: readonly MonitorEvent[], arrived: readonly MonitorEvent[], limit = FEED_LIMIT): MonitorEvent[] {
  return [...arrived].reverse().concat(feed).slice(0, limit);
}
