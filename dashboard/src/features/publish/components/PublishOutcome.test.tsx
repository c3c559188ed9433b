import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PublishOutcome } from './PublishOutcome';

describe('the publish outcome', () => {
  it('lists every queue the message fanned out to, with its copy’s id', () => {
    const html = renderToStaticMarkup(
      <PublishOutcome topic="orders" result={{ message_ids: ['id-1', 'id-2'], queues: ['email', 'stock'], duplicate: false }} />,
    );
    expect(html).toContain('to 2 queues');
    expect(html.indexOf('email')).toBeLessThan(html.indexOf('id-1'));
    expect(html.indexOf('stock')).toBeLessThan(html.indexOf('id-2'));
    expect(html).not.toContain('repeats an earlier publish');
  });

  it('warns when no queue is bound, and when the key was a repeat', () => {
    expect(renderToStaticMarkup(<PublishOutcome topic="orders" result={{ message_ids: [], queues: [], duplicate: false }} />)).toContain('not stored anywhere');
    expect(renderToStaticMarkup(<PublishOutcome topic="orders" result={{ message_ids: ['a'], queues: ['q'], duplicate: true }} />)).toContain(
      'repeats an earlier publish',
    );
  });
});
