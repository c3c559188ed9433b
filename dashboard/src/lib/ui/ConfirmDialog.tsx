import { useEffect, useRef, useState, type ReactNode } from 'react';
import { describeError } from '../errors';
import { Button } from './Button';

export interface ConfirmRequest {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
  /** Runs on confirm; the dialog stays open with the error in words if it fails. */
  action: () => Promise<unknown>;
}

/**
 * A modal built on <dialog>: the browser traps focus, Escape cancels and focus returns to the
 * button that opened it. Cancel has focus first, so a stray Enter does not delete anything.
 */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose: (done: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (request && !element.open) {
      setError(null);
      element.showModal();
    } else if (!request && element.open) element.close();
  }, [request]);

  const confirm = async () => {
    if (!request) return;
    setBusy(true);
    setError(null);
    try {
      await request.action();
      onClose(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose(false);
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg bg-white p-0 shadow-xl ring-1 ring-slate-200"
    >
      {request && (
        <div className="p-5">
          <h2 id="confirm-title" className="text-base font-semibold text-slate-900">
            {request.title}
          </h2>
          <div className="mt-2 text-sm text-slate-600">{request.body}</div>
          {error !== null && (
            <p role="alert" className="mt-3 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
              {describeError(error)}
            </p>
          )}
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="secondary" autoFocus disabled={busy} onClick={() => onClose(false)}>
              Cancel
            </Button>
            <Button variant={request.tone === 'primary' ? 'primary' : 'danger'} busy={busy} onClick={confirm}>
              {request.confirmLabel}
            </Button>
          </div>
        </div>
      )}
    </dialog>
  );
}

/** State for one page's confirmations: `ask(request)` opens the dialog. */
export function useConfirm() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  return {
    ask: setRequest,
    dialog: <ConfirmDialog request={request} onClose={() => setRequest(null)} />,
  };
}
