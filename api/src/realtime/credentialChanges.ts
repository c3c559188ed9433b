/** How long a credential change is remembered for handshakes that were in flight when it came. */
const CHANGE_MEMORY_MS = 60_000;

/**
 * When each credential last changed (rotated, revoked, signed out), for a minute. A handshake that
 * began before the change was announced but completes after it would otherwise outlive the
 * credential: the sockets that ended with the change were the ones already held.
 */
export class CredentialChanges {
  private readonly changedAt = new Map<string, number>();

  note(credentialId: string, now = Date.now()): void {
    this.changedAt.set(credentialId, now);
    for (const [id, at] of this.changedAt) if (now - at > CHANGE_MEMORY_MS) this.changedAt.delete(id);
  }

  /** Did the credential change at or after `since` (a handshake's start)? */
  changedSince(credentialId: string, since: number): boolean {
    const at = this.changedAt.get(credentialId);
    return at !== undefined && at >= since;
  }
}
