import { useState } from 'preact/hooks';

/** A CSV export's state: whether it is downloading, and why the last attempt failed (the page shows it in an ErrorNotice, where it shows its other errors). */
export function useExport(download: () => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const start = async () => {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      await download();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, start };
}
export type Exporter = ReturnType<typeof useExport>;

/**
 * The button that starts an export; it says "Exporting…" and takes no click until the file is there. aria-disabled
 * rather than disabled, so that a keyboard user's focus stays on it meanwhile. One size wherever it is (the app's
 * button, as tall as the site picker and the toolbars' controls beside it).
 */
export function ExportButton({ exporter, label = 'Export CSV' }: { exporter: Exporter; label?: string }) {
  return (
    <button type="button" class="btn export-button" aria-disabled={exporter.busy || undefined} onClick={() => void exporter.start()}>
      <span aria-live="polite">{exporter.busy ? 'Exporting…' : label}</span>
    </button>
  );
}
