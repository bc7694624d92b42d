import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A modal dialog (the browser's own <dialog>: focus stays inside, Escape closes it, the page behind is inert); the
 * focus goes back to what opened it. Shown while mounted: the parent unmounts it on onClose.
 */
export function KeywordDialog({ labelledBy, onClose, wide = false, children }: { labelledBy: string; onClose: () => void; wide?: boolean; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog ref={ref} class={`kw-dialog${wide ? ' kw-dialog-wide' : ''}`} aria-labelledby={labelledBy} onClose={() => close.current()}>
      {children}
    </dialog>
  );
}

/** The dialog's heading with its close button. */
export function DialogHead({ id, title, onClose }: { id: string; title: ComponentChildren; onClose: () => void }) {
  return (
    <div class="kw-dialog-head">
      <h2 id={id}>{title}</h2>
      <button type="button" class="btn btn-small btn-ghost" onClick={onClose}>Close</button>
    </div>
  );
}
