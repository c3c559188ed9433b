import { Flags } from '@oclif/core';

/** For commands that publish or consume: the SDK's stream by default, or plain HTTP requests. */
export const transportFlag = Flags.string({
  summary: 'How to talk to the broker: over one streaming WebSocket (/ws/v1/stream), or one HTTP request per call.',
  options: ['stream', 'http'],
  default: 'stream',
  helpGroup: 'CONNECTION',
});
