import type { AppCredentials, ReqRef, Request, UserCredentials } from '@hapi/hapi';
import type { Principal } from '../auth/principal.js';

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    /** The route's access rule, as in openapi.yaml's x-required-scope. */
    miniqueue?: { scope: string };
  }

  /**
   * What the bearer scheme (auth/scheme.ts) hands hapi: the principal, plus its scopes as `scope`
   * for hapi's own route rules. (GitHub's callback route is authenticated by bell instead and says
   * so in its own types.) The type parameters are hapi's, which a merged declaration must repeat.
   */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars -- a merged declaration
  interface AuthCredentials<AuthUser = UserCredentials, AuthApp = AppCredentials> extends Principal {}
}

export const header = <Refs extends ReqRef>(request: Request<Refs>, name: string): string | undefined => request.headers[name] as string | undefined;
