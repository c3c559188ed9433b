import type { Service, ServiceHealth } from './service.js';

/**
 * Services started one after another and stopped in reverse: whatever a service uses was started
 * before it and is stopped after it. A start that fails stops what was already started, so a
 * broker that cannot start leaves nothing running.
 */
export class ServiceGroup {
  private readonly started: Service[] = [];

  /** Starts `service` after those already in the group. */
  async start<T extends Service>(service: T): Promise<T> {
    try {
      await service.start();
    } catch (error) {
      await this.stop().catch(() => undefined);
      throw error;
    }
    this.started.push(service);
    return service;
  }

  /** Starts each in turn. */
  async startAll(services: Service[]): Promise<void> {
    for (const service of services) await this.start(service);
  }

  /** Stops every service, last started first; every stop is tried, the first failure is thrown. */
  async stop(): Promise<void> {
    let failure: unknown;
    while (this.started.length > 0) {
      const service = this.started.pop() as Service;
      await service.stop().catch((error: unknown) => {
        failure ??= error;
      });
    }
    if (failure !== undefined) throw failure;
  }

  health(): ServiceHealth[] {
    return this.started.map((service) => service.health());
  }
}
