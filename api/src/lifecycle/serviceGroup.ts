import type { Service, ServiceHealth } from './service.js';

/**
 * Services started one after another and stopped in reverse: whatever a service uses was started
 * before it and is stopped after it. Its owner stops it when a start fails (startAll does so
 * itself), so a broker that cannot start leaves nothing running.
 */
export class ServiceGroup {
  private readonly started: Service[] = [];

  /** Starts `service` after those already in the group. */
  async start<T extends Service>(service: T): Promise<T> {
    await service.start();
    this.started.push(service);
    return service;
  }

  /** Starts each in turn; when one fails, stops every service of the group and throws. */
  async startAll(services: Service[]): Promise<void> {
    try {
      for (const service of services) await this.start(service);
    } catch (error) {
      await this.stop().catch(() => undefined);
      throw error;
    }
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
