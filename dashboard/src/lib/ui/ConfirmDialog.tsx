import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSubmit } from '../useSubmit';
import { Button } from './Button';
import { FormFailure } from './FormFailure';

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
  const submission = useSubmit(async () => request?.action(), { onSuccess: () => onClose(true) });
  const { busy, reset } = submission;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (request && !element.open) {
      reset();
      element.showModal();
    } else if (!request && element.open) element.close();
  }, [request, reset]);

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
          <FormFailure failure={submission.failure} className="mt-3" />
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="secondary" autoFocus disabled={busy} onClick={() => onClose(false)}>
              Cancel
            </Button>
            <Button variant={request.tone === 'primary' ? 'primary' : 'danger'} busy={busy} onClick={submission.run}>
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
