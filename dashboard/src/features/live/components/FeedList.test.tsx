import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { appendToFeed } from '../api/feedRows';
import { FeedList } from './FeedList';

const event = (eventType: string, detail: string, extra = {}) => ({
  eventType,
  queueName: 'q',
  detail,
  count: 1,
  timestamp: '2026-11-29T10:00:00.000Z',
  ...extra,
});

describe('the feed list', () => {
  it('shows each event with its type, newest first', () => {
    const rows = appendToFeed([], [event('PUBLISHED', 'Message 1 published to q'), event('ACKED', 'Message 2 acknowledged on q')]);
    const html = renderToStaticMarkup(<FeedList rows={rows} />);
    expect(html.indexOf('data-event-type="ACKED"')).toBeLessThan(html.indexOf('data-event-type="PUBLISHED"'));
    expect(html).toContain('Message 1 published to q');
    expect(html).toContain('dateTime="2026-11-29T10:00:00.000Z"');
  });

  it('shows a second of many events as one row with its count', () => {
    const rows = appendToFeed([], [event('PUBLISHED', 'Message 1 published to q'), event('PUBLISHED', 'Message 2 published to q')]);
    const html = renderToStaticMarkup(<FeedList rows={rows} />);
    expect(html).toContain('×2');
    expect(html).toContain('2 messages published to q');
  });

  it('names the queue first in the compact list, with short ids', () => {
    const rows = appendToFeed([], [event('PUBLISHED', 'Message 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 published to email-queue', { queueName: 'email-queue' })]);
    const html = renderToStaticMarkup(<FeedList rows={rows} compact />);
    expect(html).toMatch(/>email-queue<\/span>.*Message 3f2a9c1e… published to email-queue/);
  });

  it('explains a dropped-events marker instead of showing it as an event', () => {
    const rows = appendToFeed([], [{ ...event('EVENTS_DROPPED', '120 events dropped', { count: 120 }), queueName: null }]);
    const html = renderToStaticMarkup(<FeedList rows={rows} />);
    expect(html).toContain('>DROPPED<');
    expect(html).toContain('120 events dropped: the feed could not keep up');
  });

  it('says so when nothing has happened yet', () => {
    expect(renderToStaticMarkup(<FeedList rows={[]} />)).toContain('No activity yet');
  });
});
