import { Lifecycle } from './lifecycle.js';
import type { Service, ServiceHealth } from './service.js';
import { ServiceGroup } from './serviceGroup.js';

/**
 * A service made of others: it starts listening to what it reacts to, then starts its parts in
 * order; it stops listening first, then stops its parts in reverse. So no event reaches a part that
 * has stopped, and a part that fails to start leaves the others stopped.
 */
export abstract class ComposedService implements Service {
  private readonly life: Lifecycle;
  private readonly group = new ServiceGroup();

  constructor(readonly name: string) {
    this.life = new Lifecycle(name);
  }

  /** Its parts, in the order they start. */
  protected abstract parts(): Service[];

  /** Starts (true) or stops (false) listening to the events it reacts to. */
  protected abstract listen(on: boolean): void;

  /** From the moment a stop begins. */
  protected get stopped(): boolean {
    return this.life.stopped;
  }

  start(): Promise<void> {
    return this.life.start(async () => {
      this.listen(true);
      try {
        await this.group.startAll(this.parts());
      } catch (error) {
        this.listen(false);
        throw error;
      }
    });
  }

  stop(): Promise<void> {
    return this.life.stop(async () => {
      this.listen(false);
      await this.group.stop();
    });
  }

  /** Its own, with its parts': a part without its connection is a problem of the whole. */
  health(): ServiceHealth {
    return { ...this.life.health(), parts: this.group.health() };
  }
}
