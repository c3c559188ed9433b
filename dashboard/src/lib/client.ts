import { MiniQueue } from '@miniqueue/sdk';

/**
 * The dashboard is served by the broker (or by the dev server's proxy), so the API is always on
 * this page's origin. A person waits on every call, so one quick retry rather than the SDK's four.
 */
const OPTIONS = { retry: { attempts: 2, maxDelayMs: 1000 }, timeoutMs: 15_000 };

export function brokerUrl(): string {
  return window.location.origin;
}

/**
 * A client that sends whatever credential `token()` returns now, so sign-out takes effect at once.
 * Any 401 means the credential has ended (expired, revoked, signed out in another tab), whichever
 * page asked: `onUnauthorized` lets the app return to the sign-in page in one place.
 */
export function signedInClient(token: () => string, onUnauthorized: () => void): MiniQueue {
  const watching = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await globalThis.fetch(input, init);
    if (response.status === 401) onUnauthorized();
    return response;
  };
  return new MiniQueue({ url: brokerUrl(), apiKey: token, fetch: watching, ...OPTIONS });
}

/** For the public operations used before sign-in: build info, login-code exchange. */
export function anonymousClient(): MiniQueue {
  return new MiniQueue({ url: brokerUrl(), ...OPTIONS });
}
