// The hot statements as this version writes them, for bench/hotPath.ts.
export { messagePublish } from '../src/db/queries/messagePublish.js';
export { messageClaim } from '../src/db/queries/messageClaim.js';
export { messageAck } from '../src/db/queries/messageSettle.js';
