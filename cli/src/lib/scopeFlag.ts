import { Flags } from '@oclif/core';

/** The scopes a client can be given, as clients:create and clients:update explain them. */
export const SCOPES_HELP = `  publish:<topic>, publish:*   publish to that topic / any topic
  consume:<queue>, consume:*   consume, ack, nack and extend on that queue / any queue, and read its messages
  view                         read topics, queues, messages, the DLQ and the live monitor
  metrics                      scrape /actuator/prometheus
  admin                        everything`;

/** --scope of clients:create and clients:update: the same name, the same repetition. */
export const scopeFlag = Flags.string({ char: 's', summary: 'A scope to grant; repeat for several.', multiple: true, multipleNonGreedy: true, required: true });
