import { useCallback, useRef, useState, type FormEvent } from 'react';
import { describeError } from './errors';

export interface Submission {
  /** True while the action runs: the submit button shows it and takes no second click. */
  busy: boolean;
  /** Why the last run failed, in words (the broker's message, or its field problems), else null. */
  failure: string | null;
  /** Runs the action (a button's onClick); it never rejects. */
  run: () => Promise<void>;
  /** A form's onSubmit: no page load; the form's own checks first, then the action. */
  onSubmit: (event: FormEvent) => void;
  /** Forgets the last failure (a dialog opened again for something else). */
  reset: () => void;
}

export interface SubmitOptions<T> {
  /** The form's own checks, which show their own messages; false stops the submit before any request. */
  validate?: () => boolean;
  /** After the action succeeded, with what it returned. */
  onSuccess?: (result: T) => void;
  /** A failure the form shows next to its fields itself (a broker's field problem): true keeps it out of `failure`. */
  onFieldError?: (error: unknown) => boolean;
}

/**
 * Every form's submit: pending state, the failure in words, success handling. The latest action
 * and options are used, so a form can pass closures over its current fields.
 */
export function useSubmit<T>(action: () => Promise<T>, options: SubmitOptions<T> = {}): Submission {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const latest = useRef({ action, options });
  latest.current = { action, options };

  const run = useCallback(async () => {
    setBusy(true);
    setFailure(null);
    try {
      const result = await latest.current.action();
      latest.current.options.onSuccess?.(result);
    } catch (error) {
      if (!latest.current.options.onFieldError?.(error)) setFailure(describeError(error));
    } finally {
      setBusy(false);
    }
  }, []);

  const onSubmit = useCallback(
    (event: FormEvent) => {
      event.preventDefault();
      setFailure(null);
      if (latest.current.options.validate?.() === false) return;
      void run();
    },
    [run],
  );

  const reset = useCallback(() => setFailure(null), []);
  return { busy, failure, run, onSubmit, reset };
}
