import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConflictError, type Message } from '../../src/index.js';
import { Leases, type LeasesOptions } from '../../src/consumer/leases.js';

/** A message claimed now with a lease of `seconds`. */
function claimed(id: string, seconds = 2): Message {
  const now = Date.now();
  return { message_id: id, unacked_at: new Date(now), lease_expires_at: new Date(now + seconds * 1000) } as Message;
}

function leases(options: Partial<LeasesOptions> = {}) {
  const extensions: Array<{ at: number; id: string; seconds: number }> = [];
  const handedBack: string[] = [];
  const lost: string[] = [];
  const keeper = new Leases({
    heartbeat: {},
    maxExtensionMs: 60_000,
    extend: async (id, seconds) => void extensions.push({ at: Date.now(), id, seconds }),
    lost: (message) => void lost.push(message.message_id),
    reachedMaximum: (message) => void handedBack.push(message.message_id),
    failed: () => undefined,
    ...options,
  });
  return { keeper, extensions, handedBack, lost };
}

describe('the leases a consumer holds', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('extends every held message by its lease every half lease, those due close together in one round', async () => {
    const { keeper, extensions } = leases();
    for (let i = 0; i < 100; i++) keeper.hold(claimed(`a${i}`));
    await vi.advanceTimersByTimeAsync(300);
    for (let i = 0; i < 100; i++) keeper.hold(claimed(`b${i}`)); // delivered 300 ms later
    await vi.advanceTimersByTimeAsync(3700);
    // Rounds at 1 s, 2 s, 3 s and 4 s, each for all 200 (the later ones were due within half an interval).
    const rounds = [...new Set(extensions.map((extension) => extension.at))];
    expect(rounds).toHaveLength(4);
    for (const at of rounds) expect(extensions.filter((extension) => extension.at === at)).toHaveLength(200);
    expect(new Set(extensions.map((extension) => extension.seconds))).toEqual(new Set([2]));
  });

  it('stops at release, and hands a message back once at the maximum extension instead of extending it', async () => {
    const { keeper, extensions, handedBack } = leases({ maxExtensionMs: 3000 });
    const start = Date.now();
    const kept = claimed('kept');
    const settled = claimed('settled');
    keeper.hold(kept);
    keeper.hold(settled);
    await vi.advanceTimersByTimeAsync(1000);
    keeper.release(settled);
    await vi.advanceTimersByTimeAsync(9000);
    expect(handedBack).toEqual(['kept']);
    expect(extensions.filter((extension) => extension.id === 'settled')).toHaveLength(1);
    expect(Math.max(...extensions.map((extension) => extension.at)) - start).toBeLessThan(3000);
  });

  it('reports a refused extension as lost and stops extending it', async () => {
    const { keeper, extensions, lost } = leases({
      extend: async (id) => {
        if (id === 'taken') throw new ConflictError({ status: 409, code: 'lease_lost', message: 'lost' });
      },
    });
    keeper.hold(claimed('taken'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(lost).toEqual(['taken']);
    expect(extensions).toEqual([]);
  });
});
