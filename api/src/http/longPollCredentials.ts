import Boom from '@hapi/boom';
import type { Principal } from '../auth/principal.js';
import { credentialRefused } from '../auth/scheme.js';
import { hasScope } from '../auth/scopes.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/errors.js';
import { UnavailableError } from '../errors.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import type { NotificationBus } from '../realtime/bus.js';
import type { AuthEvent } from '../realtime/channels.js';
import { CredentialChanges } from '../realtime/credentialChanges.js';

/** A waiting long poll, as far as its credential goes. */
interface Watched {
  kind: Principal['kind'];
  credentialId: string;
  /** The hash of the very credential it was let in with (a rotated client's old key is another). */
  hash: Buffer;
  queue: string;
  refusal?: Error;
  /** Tells the long poll to stop: it then claims nothing (and puts back a claim in flight). */
  stop(): void;
}

export interface CredentialWatch {
  /** A check of the credential in progress: nothing may be claimed before it has settled. Never rejects. */
  checking(): Promise<void> | undefined;
  /** What the long poll is answered instead, once its credential no longer allows it. */
  refusal(): Error | undefined;
  release(): void;
}

/** Asks again who a credential is, from its hash (CredentialResolver.resolveHash). */
export type Reresolve = (kind: Principal['kind'], hash: Buffer) => Promise<Principal | null>;

/**
 * Long polls waiting on this instance, by credential, so that one whose credential changed under
 * it is answered at once as a new request with that credential would be now, and claims nothing:
 * 401 when the key was rotated or revoked or the session ended (known from the notification
 * alone), 403 `scope_required` when the client's scopes, read again, no longer cover the queue.
 * While that read runs the client's long polls claim nothing. Hears what closes WebSockets
 * (`auth` and `reset` on the bus, a change made here included); until one comes it does nothing,
 * so a wake-up costs one map lookup and no statement.
 */
export class LongPollCredentials implements Service {
  readonly name = 'long-poll-credentials';
  private readonly life = new Lifecycle(this.name);
  private readonly byCredential = new Map<string, Set<Watched>>();
  /** Reads of a credential in progress, by credential id. */
  private readonly checks = new Map<string, Promise<void>>();
  /** For long polls let in before a change was heard, and watched only after it. */
  private readonly changes = new CredentialChanges();

  constructor(private readonly deps: { bus: NotificationBus; reresolve: Reresolve }) {}

  start(): Promise<void> {
    return this.life.start(() => void this.deps.bus.on('auth', this.onAuth).on('reset', this.onReset));
  }

  stop(): Promise<void> {
    return this.life.stop(() => void this.deps.bus.off('auth', this.onAuth).off('reset', this.onReset));
  }

  health() {
    return this.life.health();
  }

  /**
   * Watches a long poll from now until `release()`. `since` is when its credential was checked: a
   * change heard after that and before now has it checked again at once.
   */
  watch(principal: Principal, hash: Buffer, queue: string, since: number, stop: () => void): CredentialWatch {
    const { kind, credentialId } = principal;
    const watched: Watched = { kind, credentialId, hash, queue, stop };
    let set = this.byCredential.get(credentialId);
    if (!set) this.byCredential.set(credentialId, (set = new Set()));
    set.add(watched);
    if (this.changes.changedSince(credentialId, since)) this.recheck(credentialId);
    return {
      checking: () => this.checks.get(credentialId),
      refusal: () => watched.refusal,
      release: () => {
        set.delete(watched);
        if (set.size === 0 && this.byCredential.get(credentialId) === set) this.byCredential.delete(credentialId);
      },
    };
  }

  /** Long polls watched here (for tests and metrics). */
  size(): number {
    let total = 0;
    for (const set of this.byCredential.values()) total += set.size;
    return total;
  }

  private readonly onAuth = (event: unknown) => {
    const { id, change } = (event ?? {}) as Partial<AuthEvent>;
    if (typeof id !== 'string') return;
    this.changes.note(id);
    if (!this.byCredential.has(id)) return;
    if (change === 'scopes') return this.recheck(id);
    // A new key, a revocation, a deletion or an ended session: the credential is dead, no read needed.
    for (const watched of this.byCredential.get(id) ?? []) refuse(watched, credentialRefused());
  };

  /** Changes may have been missed while the bus was away: every waiting credential is read again. */
  private readonly onReset = () => {
    for (const id of this.byCredential.keys()) this.recheck(id);
  };

  /** Reads the credential again, once per key it is waited with, and refuses what it no longer allows. */
  private recheck(id: string): void {
    if (this.checks.has(id)) {
      // A read already under way may have started before this change: read again once it is done.
      const after = (this.checks.get(id) as Promise<void>).then(() => this.read(id));
      this.checks.set(id, after);
      void after.finally(() => this.checks.get(id) === after && this.checks.delete(id));
      return;
    }
    const check = this.read(id);
    this.checks.set(id, check);
    void check.finally(() => this.checks.get(id) === check && this.checks.delete(id));
  }

  private async read(id: string): Promise<void> {
    const byHash = new Map<string, Watched[]>();
    for (const watched of this.byCredential.get(id) ?? []) {
      const key = watched.hash.toString('base64');
      byHash.set(key, [...(byHash.get(key) ?? []), watched]);
    }
    await Promise.all(
      [...byHash.values()].map(async (polls) => {
        let principal: Principal | null;
        try {
          principal = await this.deps.reresolve(polls[0].kind, polls[0].hash);
        } catch {
          // Not knowing what the credential may do now, its long polls may not claim: they ask again.
          return polls.forEach((watched) => refuse(watched, new UnavailableError(undefined, DATABASE_RETRY_AFTER_SECONDS)));
        }
        for (const watched of polls) {
          if (!principal) refuse(watched, credentialRefused());
          // As hapi refuses a request without the route's scope: the same 403 body (http/errors.ts).
          else if (!hasScope(principal, `consume:${watched.queue}`)) refuse(watched, Boom.forbidden('Insufficient scope'));
        }
      }),
    );
  }
}

function refuse(watched: Watched, refusal: Error): void {
  if (watched.refusal) return;
  watched.refusal = refusal;
  watched.stop();
}
