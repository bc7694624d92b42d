import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { pathOf } from '../lib/diff.ts';
import { formatDate, formatNumber, humanize } from '../lib/format.ts';
import { readWorth } from '../lib/worth.ts';

/** A task's evidence: findings (check, URL, value) and search metrics, whatever the task type. */
export function Evidence({ evidence }: { evidence: unknown }) {
  const items = Array.isArray(evidence) ? (evidence as Array<Record<string, unknown>>) : evidence ? [evidence as Record<string, unknown>] : [];
  if (items.length === 0) return <p class="muted">No evidence recorded.</p>;
  return (
    <ul class="evidence">
      {items.slice(0, 10).map((item) => item.source === 'search_console' ? <SearchEvidence item={item} /> : (
        <li>
          {typeof item.check_id === 'string' && <strong>{humanize(item.check_id)}</strong>}
          {typeof item.url === 'string' && <> on <span class="url"><Address url={item.url} /></span></>}
          {item.value !== undefined && item.value !== null && <> — found “{String(item.value)}”</>}
          <KeyValues value={item} skip={['check_id', 'url', 'value', 'audit_id', 'observed_at']} />
          {typeof item.observed_at === 'string' && <span class="muted small"> (seen {formatDate(item.observed_at, true)})</span>}
        </li>
      ))}
      {items.length > 10 && <li class="muted">and {items.length - 10} more</li>}
    </ul>
  );
}

/** Search Console figures in a sentence: "Search Console, 28 days to 26 Nov 2026: 197 impressions, 0 clicks, average position 15". */
function SearchEvidence({ item }: { item: Record<string, unknown> }) {
  const n = (key: string) => (typeof item[key] === 'number' ? (item[key] as number) : undefined);
  const figures = [
    n('impressions') !== undefined && `${formatNumber(n('impressions'))} impressions`,
    n('clicks') !== undefined && `${formatNumber(n('clicks'))} clicks`,
    n('previous_clicks') !== undefined && `${formatNumber(n('previous_clicks'))} clicks in the 28 days before`,
    n('ctr') !== undefined && `${formatNumber((n('ctr') ?? 0) * 100, { digits: 1 })}% clicking`,
    n('position') !== undefined && `average position ${formatNumber(n('position'), { digits: 1 })}`,
  ].filter(Boolean);
  const about = typeof item.keyword === 'string' ? `“${item.keyword}”` : typeof item.query === 'string' ? `“${item.query}”` : null;
  return (
    <li>
      <strong>Search Console</strong>, {String(item.window_days ?? 28)} days{typeof item.synced_at === 'string' && <> to {formatDate(item.synced_at)}</>}:{' '}
      {about && <>{about}{typeof item.url === 'string' && <> on <span class="url">{pathOf(item.url)}</span></>}: </>}
      {!about && typeof item.url === 'string' && <><span class="url">{pathOf(item.url)}</span>: </>}
      {figures.join(', ')}
      {typeof item.ctr_curve === 'string' && <span class="muted small"> (CTR curve: {item.ctr_curve})</span>}
    </li>
  );
}

/** Small objects as "key: value" chips; nested values as JSON. */
export function KeyValues({ value, skip = [] }: { value: unknown; skip?: string[] }) {
  if (!value || typeof value !== 'object') return null;
  const entries = Object.entries(value as Record<string, unknown>).filter(([k, v]) => !skip.includes(k) && v !== null && v !== undefined);
  if (entries.length === 0) return null;
  return (
    <dl class="kv">
      {entries.map(([k, v]) => (
        <div><dt>{humanize(k)}</dt><dd>{render(v)}</dd></div>
      ))}
    </dl>
  );
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Search Console figures as a reader says them ("14 clicks, 743 impressions in 28 days"). */
function searchFigures(v: Record<string, unknown>): string | undefined {
  const parts = Object.entries(v).flatMap(([k, n]) => {
    const m = /^(clicks|impressions)_(\d+)d$/.exec(k);
    return m && typeof n === 'number' ? [{ what: `${formatNumber(n)} ${m[1]}`, days: m[2] }] : [];
  });
  return parts.length > 0 && parts.length === Object.keys(v).length ? `${parts.map((p) => p.what).join(', ')} in ${parts[0]!.days} days` : undefined;
}

function render(v: unknown): ComponentChildren {
  if (typeof v === 'string' && ISO_TIME.test(v)) return formatDate(v, true);
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const figures = searchFigures(v as Record<string, unknown>);
    if (figures) return figures;
  }
  if (typeof v === 'number') return formatNumber(v, { digits: Number.isInteger(v) ? 0 : 1 });
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  return <code class="json">{JSON.stringify(v)}</code>;
}


/** Who moved a task: "agent:strategy" -> "the strategy agent"; a user is the site's owner, i.e. you. */
export function actorName(actor: string): string {
  // "worker:executor@host:pid": the history names the process that ran it; a person reads "the executor".
  const [kind, name = ''] = actor.replace(/@.*$/u, '').split(':');
  if (kind === 'user') return 'you';
  if (kind === 'agent') return `the ${name.replace(/_/g, ' ')} agent`;
  if (kind === 'worker') return `the ${name.replace(/_/g, ' ')}`;
  return actor;
}

/**
 * What a task without a before -> after will do (a content brief, structured data, a canonical
 * or redirect plan): its instructions and the exact HTML, or each page's brief, so that an
 * approval is never blind.
 */
export function PlannedWork({ configuration, fallback = null, limit = 3 }: { configuration: unknown; fallback?: ComponentChildren; limit?: number }) {
  const config = (configuration ?? {}) as Record<string, unknown>;
  const pages = Array.isArray(config.pages) ? (config.pages as Array<Record<string, unknown>>) : [];
  const briefs = pages.filter((p) => typeof p.url === 'string' && typeof p.instructions === 'string').slice(0, limit);
  const instructions = typeof config.instructions === 'string' ? config.instructions : undefined;
  const html = typeof config.html === 'string' ? config.html : undefined;
  if (!instructions && !html && briefs.length === 0) return <>{fallback}</>;
  return (
    <div class="planned">
      <h3>What will be done</h3>
      {instructions && <p>{instructions}</p>}
      {html && <pre class="code" tabIndex={0}><code>{html}</code></pre>}
      {briefs.length > 0 && (
        <ul class="page-briefs">
          {/* Labelled by its path only when the brief does not name its page itself (the agents' briefs mostly do). */}
          {briefs.map((b) => String(b.instructions).includes(String(b.url))
            ? <li>{String(b.instructions)}</li>
            : <li><strong class="url">{pathOf(String(b.url))}</strong>: {String(b.instructions)}</li>)}
          {pages.length > briefs.length && <li class="muted">and {pages.length - briefs.length} more pages, each with its own brief</li>}
        </ul>
      )}
    </div>
  );
}

/** A task's expected clicks (the API's expected_clicks), as its card and page show them. */
export type Worth = { clicks: number; low: number; high: number; basis: string; method: string } | null | undefined;

/**
 * "about +120 clicks / 28 days, 60–200"; or, for a query with too few impressions to tell, "uncertain" with the range and
 * why (see lib/worth.ts). What it rests on in the tooltip, or in full with `explain`.
 */
export function ExpectedClicks({ worth, explain = false }: { worth: Worth; explain?: boolean }) {
  if (!worth) return <p class="worth muted small">No search data yet to estimate its clicks</p>;
  const basis = worth.basis === 'site_curve' ? "from this site's own click-through rates" : worth.basis === 'industry_curve' ? 'from a published click-through-rate curve' : "from its pages' clicks";
  const read = readWorth(worth);
  return (
    <div class="worth">
      <p title={explain ? undefined : worth.method}>
        {read.kind === 'none' ? <span class="muted">No clicks expected from search</span>
          : read.kind === 'uncertain'
            ? <><strong class="worth-uncertain">Clicks uncertain</strong> <span class="muted">({formatNumber(read.low)}–{formatNumber(read.high)} / 28 days: {read.why})</span></>
            : <><strong>about +{formatNumber(read.clicks)} clicks</strong> / 28 days <span class="muted">({formatNumber(read.low)}–{formatNumber(read.high)})</span></>}
      </p>
      {explain && <p class="muted small">Estimated {basis}: {worth.method}.{read.kind === 'uncertain' && ` So few searches say little about how often the query is searched and where it ranks: the range is shown, not a figure.`}</p>}
    </div>
  );
}

/**
 * An address that may wrap after each of its slashes (and before a query), so that a long one breaks between its parts
 * ("…/roses/ | climbing/care/") rather than inside a word; .url still breaks inside a part too long for the line.
 */
export function Address({ url }: { url: string }) {
  const parts = url.split(/(?<=[^/:]\/)(?=[^/])|(?=[?#])/u);
  return <>{parts.map((part, i) => <>{i > 0 && <wbr />}{part}</>)}</>;
}

/** What a task acts on, in words: a page (linked), a search query ("keyword:…", "query:…"), or the site. */
export function TargetLine({ target }: { target: string }) {
  const query = /^(?:keyword|query):(.*)$/s.exec(target)?.[1];
  if (query !== undefined) return <p class="target"><span class="muted">Search query</span> “{query}”</p>;
  if (/^https?:\/\//.test(target)) return <p class="target"><span class="muted">Page</span> <a href={target} class="url" target="_blank" rel="noopener noreferrer"><Address url={target} /></a></p>;
  return <p class="target"><span class="muted">Target</span> <span class="url"><Address url={target} /></span></p>;
}

/** Reject (or cancel) asks why, optionally: the reason is kept in the task's history. */
export function RejectReason({ count, busy, onReject, onKeep, verb = 'reject' }: { count: number; busy: boolean; onReject: (reason: string) => void; onKeep: () => void; verb?: 'reject' | 'cancel' }) {
  const [reason, setReason] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const Verb = verb === 'reject' ? 'Reject' : 'Cancel';
  return (
    <form class="reject-reason" onSubmit={(e) => { e.preventDefault(); onReject(reason); }}>
      <label>Why {verb} {count === 1 ? 'it' : `these ${count}`}? <span class="muted small">(optional, kept in the history)</span>
        <input type="text" maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} ref={input} placeholder="e.g. we no longer sell this" />
      </label>
      <button type="submit" class="btn btn-small" disabled={busy}>{Verb}</button>
      <button type="button" class="btn btn-small btn-ghost" disabled={busy} onClick={onKeep}>Keep</button>
    </form>
  );
}
