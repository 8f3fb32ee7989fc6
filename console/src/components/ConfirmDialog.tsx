import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ErrorNote } from './ErrorNote.tsx';

/**
 * A modal confirmation (`<dialog>`, Esc cancels). `onConfirm` runs the action; the dialog closes when it
 * succeeds and shows the problem's `detail` when it fails.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  danger = false,
  onConfirm,
  onClose,
}: {
  title: string;
  children: React.ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm(): Promise<unknown>;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const run = useMutation({ mutationFn: onConfirm, onSuccess: () => onClose() });
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="confirm-title" onClose={onClose}>
      <h2 id="confirm-title">{title}</h2>
      <div className="dialog-body">{children}</div>
      <ErrorNote error={run.error} />
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className={`button ${danger ? 'danger' : 'primary'}`}
          onClick={() => run.mutate()}
          disabled={run.isPending}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
