import { afterAll, beforeAll } from 'vitest';
import { as, startBroker, type TestBroker } from './broker.js';

export interface FileBroker {
  broker: TestBroker;
  /** Runs a command against the broker with its admin key. */
  admin: ReturnType<typeof as>;
}

/** One listening broker for the calling test file: started before its tests, stopped after them. */
export function brokerForFile(onStarted: (started: FileBroker) => void): void {
  let broker: TestBroker | undefined;
  beforeAll(async () => {
    broker = await startBroker();
    onStarted({ broker, admin: as(broker) });
  });
  afterAll(async () => {
    await broker?.stop();
  });
}
