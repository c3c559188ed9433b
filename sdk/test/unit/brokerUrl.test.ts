/** The client refuses a URL it would send the API key over in a way nobody meant. */
import { describe, expect, it } from 'vitest';
import { MiniQueue, type Consumer, type Message } from '../../src/index.js';

describe('the url option', () => {
  for (const url of [
    'htps://broker.example',
    'ftp://broker.example',
    'ws://localhost:8080',
    'wss://broker.example',
    'localhost:8080',
    'broker.example',
    '',
    'file:///etc/passwd',
  ]) {
    it(`refuses ${JSON.stringify(url)} with a TypeError quoting it`, () => {
      const make = () => new MiniQueue({ url, apiKey: 'mq_secret' });
      expect(make).toThrow(TypeError);
      expect(make).toThrow(JSON.stringify(url));
      expect(make).not.toThrow('mq_secret');
    });
  }

  it('refuses a value that is not a string', () => {
    expect(() => new MiniQueue({ url: undefined as unknown as string })).toThrow(/got undefined/);
  });

  for (const url of ['http://localhost:8080', 'https://broker.example/', 'HTTPS://Broker.Example:8443//']) {
    it(`accepts ${url}`, () => {
      const client = new MiniQueue({ url, transport: 'http' });
      client.close();
    });
  }
});

// Checked by tsc (npm run typecheck): `phase` narrows what an error listener is given.
export function listen(consumer: Consumer): void {
  consumer.on('error', (_error, context) => {
    if (context.phase === 'handler') {
      const message: Message = context.message;
      // @ts-expect-error a handler may throw anything: not narrowed to Error
      const thrown: Error = context.error;
      void [message, thrown];
    } else if (context.phase === 'claim') {
      const failure: Error = context.error;
      // @ts-expect-error a claim has no message yet
      const message: Message = context.message;
      void [failure, message];
    } else if (context.phase === 'push') {
      const failure: Error = context.error;
      void failure;
    } else {
      const failure: Error = context.error;
      const message: Message = context.message;
      void [failure, message];
    }
  });
  consumer.on('fatal', (error) => {
    const status: number = error.status;
    void status;
  });
}
