import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage, formatNumber } from '../lib/format.ts';

/** Loads data for a page; reload() fetches again, keeping what is shown meanwhile. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true }));
    return load().then(
      (data) => void (mine === generation.current && setState({ data, loading: false })),
      (error: unknown) => void (mine === generation.current && setState((s) => ({ data: s.data, error, loading: false }))),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  useEffect(() => {
    setState({ loading: true });
    void run();
  }, [run]);
  return { ...state, reload: run };
}

/** Calls fn every `ms` while `active`, stopping when the page goes away. */
export function usePolling(fn: () => void, ms: number, active: boolean) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(fn, ms);
    return () => clearInterval(timer);
  }, [fn, ms, active]);
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {label}…
    </div>
  );
}

export function ErrorNotice({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div class="notice notice-error" role="alert">
      <p>{errorMessage(error)}</p>
      {retry && <button type="button" class="btn btn-small" onClick={retry}>Try again</button>}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-body">{children}</div>}
    </div>
  );
}

/** Shows loading, error or content for one useAsync result. */
export function Async<T>({ state, children, label }: { state: { data?: T; error?: unknown; loading: boolean; reload: () => void }; label?: string; children: (data: T) => ComponentChildren }) {
  if (state.data !== undefined) {
    return (
      <>
        {state.error !== undefined && <ErrorNotice error={state.error} retry={state.reload} />}
        {children(state.data)}
      </>
    );
  }
  if (state.error !== undefined) return <ErrorNotice error={state.error} retry={state.reload} />;
  return <Loading label={label} />;
}

const STATUS_TONE: Record<string, string> = {
  awaiting_approval: 'warn', queued: 'info', in_progress: 'info', running: 'info', pending: 'info',
  completed: 'good', verified: 'good', restored: 'good', connected: 'good',
  failed: 'bad', cancelled: 'muted', rolled_back: 'muted', not_applicable: 'muted', revoked: 'bad',
  critical: 'bad', high: 'bad', error: 'bad', medium: 'warn', warning: 'warn', low: 'info', notice: 'info',
};
export function Badge({ value, label }: { value: string; label?: string }) {
  return <span class={`badge badge-${STATUS_TONE[value] ?? 'muted'}`}>{label ?? value.replace(/_/g, ' ')}</span>;
}

export function scoreTone(score: number | null | undefined) {
  if (score === null || score === undefined) return 'muted';
  return score >= 90 ? 'good' : score >= 70 ? 'warn' : 'bad';
}
export function Score({ value, size = 'md' }: { value: number | null | undefined; size?: 'md' | 'lg' }) {
  const label = value === null || value === undefined ? 'Not audited yet' : `Health score ${value} out of 100`;
  return (
    <span class={`score score-${scoreTone(value)} score-${size}`} role="img" aria-label={label} title={label}>
      {value ?? '—'}
    </span>
  );
}

/** A small line of values (oldest first), e.g. the score over the last audits. */
export function Spark({ values, label, width = 96, height = 28 }: { values: number[]; label: string; width?: number; height?: number }) {
  if (values.length < 2) return <span class="muted small">{values.length ? 'one audit' : 'no audits'}</span>;
  const max = Math.max(...values);
  const min = Math.min(...values);
  const span = max - min || 1;
  const points = values.map((v, i) => `${((i / (values.length - 1)) * (width - 4) + 2).toFixed(1)},${(height - 2 - ((v - min) / span) * (height - 4)).toFixed(1)}`);
  const last = values[values.length - 1]!;
  return (
    <svg class={`spark spark-${scoreTone(last)}`} width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <polyline points={points.join(' ')} fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" stroke-linecap="round" />
    </svg>
  );
}

export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize) return null;
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="btn btn-small" disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous</button>
      <span aria-live="polite">{formatNumber(from)}–{formatNumber(to)} of {formatNumber(total)}</span>
      <button type="button" class="btn btn-small" disabled={page >= pages} onClick={() => onPage(page + 1)}>Next</button>
    </nav>
  );
}

export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string | undefined; hint?: string; children: ComponentChildren }) {
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {hint && !error && <p class="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}
/** aria attributes that tie an input to its hint or error. */
export const describedBy = (id: string, error?: string, hint?: boolean) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
});

/** A copy-to-clipboard button that says it worked. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button type="button" class="btn btn-small" onClick={() => navigator.clipboard.writeText(text).then(() => { setDone(true); setTimeout(() => setDone(false), 2000); }, () => setDone(false))}>
      <span aria-live="polite">{done ? 'Copied' : label}</span>
    </button>
  );
}

export function PageHeader({ title, subtitle, actions }: { title: ComponentChildren; subtitle?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1>{title}</h1>
        {subtitle && <p class="subtitle">{subtitle}</p>}
      </div>
      {actions && <div class="actions">{actions}</div>}
    </header>
  );
}
