import type { Request } from '@hapi/hapi';

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    /** The route's access rule, as in openapi.yaml's x-required-scope. */
    miniqueue?: { scope: string };
  }
}

/** Path parameters after validation (names lowercased, ids checked). */
export const params = (request: Request): Record<string, string> => request.params as Record<string, string>;

export const header = (request: Request, name: string): string | undefined =>
  request.headers[name] as string | undefined;
