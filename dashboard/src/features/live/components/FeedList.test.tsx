import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FeedList } from './FeedList';

const event = (eventType: string, detail: string) => ({ eventType, queueName: 'q', detail, count: 1, timestamp: '2026-11-29T10:00:00.000Z' });

describe('the feed list', () => {
  it('shows each event with its type, newest first as given', () => {
    const html = renderToStaticMarkup(<FeedList events={[event('ACKED', 'Message 2 acknowledged on q'), event('PUBLISHED', 'Message 1 published to q')]} />);
    expect(html.indexOf('data-event-type="ACKED"')).toBeLessThan(html.indexOf('data-event-type="PUBLISHED"'));
    expect(html).toContain('Message 1 published to q');
    expect(html).toContain('dateTime="2026-11-29T10:00:00.000Z"');
  });

  it('explains a dropped-events marker instead of showing it as an event', () => {
    const html = renderToStaticMarkup(<FeedList events={[{ ...event('EVENTS_DROPPED', '120 events dropped'), queueName: null }]} />);
    expect(html).toContain('>DROPPED<');
    expect(html).toContain('120 events dropped: the feed could not keep up');
  });

  it('says so when nothing has happened yet', () => {
    expect(renderToStaticMarkup(<FeedList events={[]} />)).toContain('No activity yet');
  });
});
