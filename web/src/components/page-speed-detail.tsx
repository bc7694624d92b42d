import { formatDate, formatNumber } from '../lib/format.ts';
import { FIELD_LABEL, metricOf, RatingTag, type Lab, type SpeedPage } from './page-speed-parts.tsx';

/** What each of Lighthouse's findings about the LCP element asks the developer to do, and why. */
const FIXES: Record<NonNullable<Lab['lcp_element']>['fixes'][number], string> = {
  remove_lazy_loading: 'Remove loading="lazy" from it: a lazy image waits for the layout before it starts loading.',
  preload: 'Make it discoverable in the HTML (an <img src> in the markup, or <link rel="preload" as="image">), not set by script or CSS.',
  fetchpriority_high: 'Add fetchpriority="high" to it, so the browser fetches it before other images.',
};
/** The metrics the row does not show, and their names. */
const OTHER_METRICS: Array<[string, string]> = [['fcp', 'First Contentful Paint'], ['si', 'Speed Index'], ['ttfb', 'Time to first byte']];
const TOP_OPPORTUNITIES = 5;

const bytes = (n: number) => (n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)} MB` : `${formatNumber(Math.max(1, Math.round(n / 1000)))} KB`);
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${formatNumber(n)} ms`);
const size = (s: { width: number; height: number } | null) => (s ? `${formatNumber(s.width)} × ${formatNumber(s.height)} px` : null);
/** Lighthouse's LCP phases in the order they happen (the stored report's keys come back in the database's order). */
const PHASES = ['TTFB', 'Load Delay', 'Load Time', 'Render Delay'];
const phaseOrder = (name: string) => (PHASES.includes(name) ? PHASES.indexOf(name) : PHASES.length);

/**
 * The file's name, what a developer looks for in the code, with the host when it is another site's (a font's
 * fonts.googleapis.com/css2); the full address is in the title.
 */
function FileName({ url, page }: { url: string; page: string }) {
  let name = url;
  try {
    const u = new URL(url, page);
    const file = u.pathname.split('/').filter(Boolean).pop() ?? u.pathname;
    name = u.host === new URL(page).host ? file : `${u.host}/${file}`;
  } catch { /* not an address: shown as it is */ }
  return <span class="url" title={url}>{name}</span>;
}

/** One measured page: what makes it slow, each item with what to do about it; or why Lighthouse could not measure it. */
export function PageDetail({ page: p }: { page: SpeedPage }) {
  const lab = p.lab;
  return (
    <div class="cwv-page">
      <p class="small">
        <a class="url" href={p.url} target="_blank" rel="noopener noreferrer">{p.url}</a>
        {lab && <span class="muted"> · Lighthouse {lab.lighthouse_version}, {formatDate(lab.measured_at, true)}</span>}
      </p>
      {/* Lighthouse's words, without its code ("NO_FCP: The page did not paint any content"): the code is for the API. */}
      {p.error && <p class="notice notice-error">Lighthouse could not measure this page: {p.error.replace(/^[A-Z][A-Z0-9_]+: /u, '')}</p>}
      {lab && <LabDetail lab={lab} page={p.url} />}
      {/* The page's field LCP, INP and CLS are in its row: here whether they pass, and the two that are not Core Web Vitals. */}
      {p.field && (
        <p class="small">
          {FIELD_LABEL}, this page: <strong class={p.field.passes ? 'tone-good' : 'tone-bad'}>{p.field.passes ? 'passes' : 'does not pass'}</strong> Google's assessment
          {p.field.metrics.filter((m) => m.id === 'fcp' || m.id === 'ttfb').map((m) => <> · {m.id.toUpperCase()} {m.display} <RatingTag rating={m.rating} /></>)}
        </p>
      )}
    </div>
  );
}

function LabDetail({ lab, page }: { lab: Lab; page: string }) {
  const fileOf = (url: string) => <FileName url={url} page={page} />;
  const lcp = lab.lcp_element;
  const others = OTHER_METRICS.flatMap(([id, name]) => {
    const m = metricOf(lab, id);
    return m ? [<span class="cwv-other">{name} {m.display} <RatingTag rating={m.rating} /></span>] : [];
  });
  const opportunities = lab.opportunities.slice(0, TOP_OPPORTUNITIES);
  const nothing = !lcp?.fixes.length && lab.images.length === 0 && lab.render_blocking.length === 0 && lab.unsized_images.length === 0 && opportunities.length === 0;
  return (
    <>
      {others.length > 0 && <p class="small cwv-others">{others}</p>}
      {lcp && (
        <>
          <h4 class="cwv-h4">Largest element (LCP)</h4>
          <p class="small">{lcp.kind === 'image' ? <>An image{lcp.image_url && <>, {fileOf(lcp.image_url)}</>}</> : 'Text'}: <code class="cwv-code">{lcp.selector}</code></p>
          <pre class="cwv-snippet" tabIndex={0}><code>{lcp.snippet}</code></pre>
          {Object.keys(lcp.phases).length > 0 && <p class="small muted">Where its time went: {Object.entries(lcp.phases).sort(([a], [b]) => phaseOrder(a) - phaseOrder(b)).map(([phase, t]) => `${phase} ${ms(t)}`).join(' · ')}</p>}
          {lcp.fixes.length > 0 && <ul class="cwv-list">{lcp.fixes.map((f) => <li>{FIXES[f]}</li>)}</ul>}
        </>
      )}
      {lab.images.length > 0 && (
        <>
          <h4 class="cwv-h4">Images to serve better</h4>
          <ul class="cwv-list">
            {lab.images.map((i) => (
              <li>
                {fileOf(i.url)}: {bytes(i.bytes)}{size(i.natural) && <>, {size(i.natural)}</>}{size(i.displayed) && <> shown at {size(i.displayed)}</>}.
                {i.serve && <> Serve {i.serve}.</>} <strong>Saves about {bytes(i.savings_bytes)}.</strong>
              </li>
            ))}
          </ul>
        </>
      )}
      {lab.unsized_images.length > 0 && <p class="small">Images without width and height (the layout shifts as they load): {lab.unsized_images.map((u, i) => <>{i > 0 && ', '}{fileOf(u)}</>)}</p>}
      {lab.render_blocking.length > 0 && (
        <>
          <h4 class="cwv-h4">Files that block the first paint</h4>
          <ul class="cwv-list">{lab.render_blocking.map((b) => <li>{fileOf(b.url)}: {bytes(b.bytes)}, delays the first paint by about {ms(b.ms)}</li>)}</ul>
        </>
      )}
      {opportunities.length > 0 && (
        <>
          <h4 class="cwv-h4">Other opportunities</h4>
          <ul class="cwv-list">
            {opportunities.map((o) => <li>{o.title}: saves about {[o.savings_ms > 0 && ms(o.savings_ms), o.savings_bytes > 0 && bytes(o.savings_bytes)].filter(Boolean).join(', ')}</li>)}
          </ul>
        </>
      )}
      {nothing && <p class="small tone-good">Lighthouse found nothing in particular to fix on this page.</p>}
    </>
  );
}
