import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { formatNumber } from '../lib/format.ts';
import { Async, Pager, useAsync } from './ui.tsx';
import '../styles/rendering.css';

type Report = Exclude<Awaited<ReturnType<typeof load>>, null | 'running'>;
type Rendered = Report['pages']['items'][number];
type Snapshot = Rendered['raw'];
type Field = keyof Snapshot;

const PAGE_SIZE = 20;
/**
 * A page is flagged (content_only_after_javascript, which the verdict counts) when under this share of its main text is
 * in the HTML and the rendered page has at least this many words: the check's thresholds, so rows and verdict agree.
 */
const TEXT_IN_RAW_MIN = 0.5;
const MIN_RENDERED_WORDS = 50;
/** A changed robots meta or canonical tells search engines what to index: an error, not a note like a changed title. */
const DIRECTIVES = new Set<Field>(['robots', 'canonical']);
/** Fields whose values are addresses: only these may break anywhere on a narrow screen, prose breaks between words. */
const URL_FIELDS = new Set<Field>(['canonical']);
const FIELDS: Array<[Field, string]> = [
  ['title', 'Title'], ['meta_description', 'Meta description'], ['robots', 'Robots meta'], ['canonical', 'Canonical'], ['h1', 'H1'],
  ['hreflang', 'hreflang alternates'], ['structured_data', 'Structured data'], ['internal_links', 'Internal links'], ['words', 'Words'],
];
const LABEL = Object.fromEntries(FIELDS) as Record<Field, string>;

async function load(auditId: string, page: number) {
  try {
    return unwrap(await api.GET('/api/v1/audits/{audit_id}/rendering', { params: { path: { audit_id: auditId }, query: { page, page_size: PAGE_SIZE } } }));
  } catch (e) {
    const status = (e as ApiError).status;
    if (status === 404) return null; // an audit from before rendering was recorded
    if (status === 409) return 'running'; // reported once the audit completes; the audit view refreshes then
    throw e;
  }
}

/** Pages of the audit with this many findings of a check (the audit's issue list counts every page, not one page of this list). */
type Counts = Array<{ check_id: string; affected_count: number }>;

/** What JavaScript adds to the site's pages, and so what crawlers that run no script (AI assistants') cannot read. */
export function Rendering({ auditId, issues }: { auditId: string; issues: Counts }) {
  const [page, setPage] = useState(1);
  const state = useAsync(() => load(auditId, page), [auditId, page]);
  return (
    <Async state={state} label="Loading JavaScript rendering">
      {(report) => report !== 'running' && (
        <section class="rendering panel" aria-labelledby="rendering-title">
          <h2 id="rendering-title">JavaScript rendering</h2>
          {report === null ? <p class="muted">Rendering was not recorded for this audit: it ran before audits rendered JavaScript. The next audit shows it.</p> : (
            <>
              <Verdict report={report} issues={issues} />
              <Reasons report={report} />
              {report.pages.total > 0 && <Pages report={report} onPage={setPage} />}
            </>
          )}
        </section>
      )}
    </Async>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/** One sentence a site owner can act on, from the summary and the audit's counts of the rendering checks. */
function Verdict({ report: r, issues }: { report: Report; issues: Counts }) {
  const count = (id: string) => issues.find((i) => i.check_id === id)?.affected_count ?? 0;
  const total = r.rendered + r.failed;
  const failed = r.failed > 0 && <> {plural(r.failed, 'page')} failed to render: the raw HTML was audited instead.</>;
  if (r.mode === 'never') return <p class="render-verdict">Rendering is off for this site: the audit read the raw HTML only, as crawlers that run no JavaScript do. Set JavaScript rendering to Auto in the site's settings to compare.</p>;
  if (!r.available) return <p class="render-verdict tone-warn">Rendering was not available: {r.unavailable ?? 'the browser could not be started'}.</p>;
  if (total === 0) return <p class="render-verdict">No page was rendered: every page's HTML had its content.</p>;
  const content = count('content_only_after_javascript');
  const links = count('links_only_after_javascript');
  const directives = count('directive_changed_by_javascript');
  const rendered = `${plural(total, 'page')} rendered`;
  if (content > 0) return <p class="render-verdict tone-bad">{rendered}: JavaScript adds the main text on {formatNumber(content)} — AI assistants' crawlers, which run no script, cannot read it.{failed}</p>;
  if (links > 0) return <p class="render-verdict tone-warn">{rendered}: JavaScript adds internal links on {formatNumber(links)} — crawlers that run no script do not find the pages behind them.{failed}</p>;
  if (directives > 0) return <p class="render-verdict tone-warn">{rendered}: JavaScript changes a robots directive or the canonical on {formatNumber(directives)} — Google may act on the one in the HTML.{failed}</p>;
  const onlyHome = r.mode === 'auto' && !r.template_renders_content && r.by_reason.every((b) => b.reason === 'template_sample');
  if (onlyHome) return <p class="render-verdict tone-good">Your pages' HTML has the content: only the home page was rendered, to compare, and JavaScript adds nothing crawlers miss.{failed}</p>;
  return <p class="render-verdict">{rendered}: their HTML already has the main text and links, so crawlers that run no script read them too.{failed}</p>;
}

function Reasons({ report: r }: { report: Report }) {
  if (r.by_reason.length === 0) return null;
  return (
    <>
      <h3 class="render-subhead">Why pages were rendered</h3>
      <ul class="render-reasons">
        {r.by_reason.map((b) => <li><strong>{plural(b.pages, 'page')}</strong> because {b.reason_text}</li>)}
      </ul>
      <p class="muted small">Rendering took {formatNumber(Math.round(r.render_ms / 100) / 10)} s{r.peak_memory_mb > 0 && <> and used up to {formatNumber(r.peak_memory_mb)} MB of memory</>}.</p>
    </>
  );
}

function Pages({ report, onPage }: { report: Report; onPage: (page: number) => void }) {
  // The page shown is the one the report holds, not the one asked for: while the next page loads, the label and rows agree.
  const page = report.pages.page;
  return (
    <>
      <h3 class="render-subhead">Rendered pages</h3>
      <div class="table-wrap">
        <table class="table compact stacked render-pages">
          <caption class="sr-only">Rendered pages: the raw HTML against the page after JavaScript</caption>
          <thead>
            <tr><th scope="col">Page</th><th scope="col">Main text in the HTML</th><th scope="col">Links only after JavaScript</th><th scope="col">What JavaScript changes</th></tr>
          </thead>
          <tbody>{report.pages.items.map((p, i) => <PageRow key={p.url} page={p} id={`render-${page}-${i}`} />)}</tbody>
        </table>
      </div>
      <Pager page={page} pageSize={PAGE_SIZE} total={report.pages.total} onPage={onPage} />
    </>
  );
}

/** The share of the main text a crawler that runs no script can read; red only on a page the audit flags for it. */
function TextInRaw({ share, renderedWords }: { share: number | null; renderedWords: number }) {
  if (share === null) return <span class="muted">—</span>;
  const tone = share < TEXT_IN_RAW_MIN && renderedWords >= MIN_RENDERED_WORDS ? 'tone-bad' : share < 0.9 ? 'tone-warn' : 'tone-good';
  return <span class={tone}>{formatNumber(Math.round(share * 100))}%</span>;
}

const pathOf = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
};

function PageRow({ page: p, id }: { page: Rendered; id: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr class={p.error ? 'render-failed' : undefined}>
        <td>
          <button type="button" class="render-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)} title={p.url}>
            <span class="url">{pathOf(p.url)}</span>{pathOf(p.url) === '/' && <span class="muted"> (home page)</span>} <span class="chevron" aria-hidden="true">{open ? '▴' : '▾'}</span>
          </button>
        </td>
        <td data-label="Main text in the HTML">{p.error ? <span class="muted">—</span> : <TextInRaw share={p.text_in_raw} renderedWords={p.rendered?.words ?? 0} />}</td>
        <td data-label="Links only after JavaScript">{p.error ? <span class="muted">—</span> : p.links_only_rendered.count > 0 ? <span class="tone-warn">{formatNumber(p.links_only_rendered.count)}</span> : 'None'}</td>
        <td class="render-changes" data-label="What JavaScript changes">
          {p.error ? <span class="tone-bad">Render failed</span> : p.changes.length === 0 ? <span class="muted">Nothing</span> : <span>{p.changes.map((c, i) => <>{i > 0 && ', '}{DIRECTIVES.has(c.field) ? <span class="tone-bad">{LABEL[c.field]}</span> : LABEL[c.field]}</>)}</span>}
        </td>
      </tr>
      {open && (
        <tr class="render-detail" id={id}>
          <td colSpan={4}><PageDetail page={p} /></td>
        </tr>
      )}
    </>
  );
}

const shown = (field: Field, value: Snapshot[Field] | undefined) => {
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return <span class="muted">none</span>;
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'number') return formatNumber(value);
  return URL_FIELDS.has(field) ? <span class="url">{value}</span> : value;
};

/** Raw HTML beside the rendered page, field by field, and what the browser did; for a failed render, the error and the raw HTML only. */
function PageDetail({ page: p }: { page: Rendered }) {
  const changed = new Set<string>(p.changes.map((c) => c.field));
  if (p.rendered && p.raw.words !== p.rendered.words) changed.add('words');
  const { requests } = p;
  return (
    <div class="render-page">
      <p class="small">
        <a class="url" href={p.url} target="_blank" rel="noopener noreferrer">{p.url}</a>
        <span class="muted"> · rendered because {p.reason_text}{!p.error && <> · {formatNumber(p.ms)} ms</>}</span>
      </p>
      {p.error && <p class="notice notice-error">The render failed: {p.error}. The raw HTML was audited instead.</p>}
      <table class="table compact render-compare">
        <caption class="sr-only">{pathOf(p.url)}: {p.rendered ? 'raw HTML and rendered page' : 'raw HTML (the render failed)'}</caption>
        <thead><tr><th scope="col">Field</th><th scope="col">Raw HTML</th>{p.rendered && <th scope="col">Rendered</th>}</tr></thead>
        <tbody>
          {FIELDS.map(([field, label]) => {
            const directive = changed.has(field) && DIRECTIVES.has(field);
            return (
              <tr class={directive ? 'render-changed render-directive' : changed.has(field) ? 'render-changed' : undefined}>
                <th scope="row">{label}{changed.has(field) && <span class="render-mark"> {directive ? 'Directive changed' : 'changed'}</span>}</th>
                <td data-label="Raw HTML">{shown(field, p.raw[field])}</td>
                {p.rendered && <td data-label="Rendered">{shown(field, p.rendered[field])}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
      {p.links_only_rendered.count > 0 && (
        <p class="small">Links only after JavaScript ({formatNumber(p.links_only_rendered.count)}), e.g. {p.links_only_rendered.examples.map((u, i) => <>{i > 0 && ', '}<span class="url">{pathOf(u)}</span></>)}</p>
      )}
      {!p.error && p.links_without_href.length > 0 && <p class="small">Elements that act as links but have no href a crawler can follow: {p.links_without_href.map((t) => `“${t}”`).join(', ')}</p>}
      {!p.error && (
        <p class="small muted">
          The browser made {plural(requests.made, 'request')}: {formatNumber(requests.refused)} blocked (private or internal addresses), {formatNumber(requests.failed)} failed
          {requests.disallowed.length > 0 && <>, {formatNumber(requests.disallowed.length)} not fetched because robots.txt disallows {requests.disallowed.length === 1 ? 'it' : 'them'} ({requests.disallowed.slice(0, 3).map(pathOf).join(', ')})</>}.
        </p>
      )}
    </div>
  );
}
