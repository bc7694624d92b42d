import { api, unwrap, type ApiError } from '../api/client.ts';
import { formatNumber } from '../lib/format.ts';
import { Async, CopyButton, useAsync } from './ui.tsx';
import '../styles/ai-access.css';

type Report = NonNullable<Awaited<ReturnType<typeof load>>>;
type Crawler = Report['crawlers'][number];

const PURPOSES: Array<{ purpose: Crawler['purpose']; label: string; consequence: string }> = [
  { purpose: 'search', label: 'Search and AI answers', consequence: 'if blocked, the site is not shown or cited there' },
  { purpose: 'user', label: 'Fetches a user asked for', consequence: 'if blocked, the assistant cannot read a page a user points it to' },
  { purpose: 'training', label: 'Model training', consequence: 'blocking is your choice; it does not affect search' },
];
/** The robots.txt line that decides for a crawler, as the owner would look for it. */
const ruleOf = (c: Crawler) => (c.matched_group === 'none' ? 'no rule' : <code>{c.matched_group === 'explicit' ? `User-agent: ${c.token}` : 'User-agent: *'}</code>);
const LLMS_LABEL = { valid: 'Valid', invalid: 'Does not follow the format', missing: 'None published' } as const;

async function load(auditId: string) {
  try {
    return unwrap(await api.GET('/api/v1/audits/{audit_id}/ai-access', { params: { path: { audit_id: auditId } } }));
  } catch (e) {
    if ((e as ApiError).status === 404) return null; // an audit from before AI access was recorded
    throw e;
  }
}

/** What each search and AI crawler may fetch, the site's llms.txt, and a draft the owner may publish. The product shows; the owner decides. */
export function AiAccess({ auditId }: { auditId: string }) {
  const state = useAsync(() => load(auditId), [auditId]);
  return (
    <Async state={state} label="Loading AI crawler access">
      {(report) => report && (
        <section class="ai-access panel" aria-labelledby="ai-access-title">
          <h2 id="ai-access-title">AI crawlers</h2>
          <p class="muted">What your robots.txt lets each crawler fetch. Which to allow is your choice; this shows what each block means.</p>
          <RobotsNote status={report.robots_status} />
          <div class="table-wrap">
            <table class="table compact stacked ai-table">
              <caption class="sr-only">Search and AI crawlers and what robots.txt lets them fetch</caption>
              <thead>
                <tr><th scope="col">Crawler</th><th scope="col">Home page</th><th scope="col">Sitemaps</th><th scope="col">Audited pages</th><th scope="col">Rule</th></tr>
              </thead>
              {PURPOSES.map(({ purpose, label, consequence }) => (
                <tbody>
                  <tr class="ai-group"><th scope="rowgroup" colSpan={5}>{label} <span class="muted">· {consequence}</span></th></tr>
                  {report.crawlers.filter((c) => c.purpose === purpose).map((c) => <CrawlerRow crawler={c} />)}
                </tbody>
              ))}
            </table>
          </div>
          <LlmsTxt report={report} />
        </section>
      )}
    </Async>
  );
}

function CrawlerRow({ crawler: c }: { crawler: Crawler }) {
  return (
    <tr>
      <th scope="row">
        {c.docs ? <a href={c.docs} target="_blank" rel="noopener noreferrer">{c.token}</a> : c.token}
        <span class="ai-owner">{c.owner}{c.control_token && ' · control token, not a crawler'}</span>
      </th>
      <td data-label="Home page"><Allowed value={c.home_allowed} policy={c.purpose === 'training'} /></td>
      <td data-label="Sitemaps">{c.sitemaps_allowed === null ? <span class="muted">no sitemap</span> : <Allowed value={c.sitemaps_allowed} policy={c.purpose === 'training'} />}</td>
      <td data-label="Audited pages">{c.pages_allowed_share === null ? <span class="muted">—</span> : `${formatNumber(Math.round(c.pages_allowed_share * 100))}% allowed`}</td>
      <td data-label="Rule" class="muted">{ruleOf(c)}</td>
    </tr>
  );
}

/** A robots.txt that is not there, or did not answer, changes what the table means. */
function RobotsNote({ status }: { status: number }) {
  if (status >= 200 && status < 300) return null;
  if (status >= 400 && status < 500) return <p>No robots.txt (it answered {status}): every crawler may fetch every page.</p>;
  return <p class="tone-warn">robots.txt did not answer ({status === 0 ? 'no response' : `status ${status}`}): crawlers treat the whole site as disallowed until it does (RFC 9309), and search engines stop crawling it. The table shows what that means for each.</p>;
}

/** A training crawler's block is the owner's choice: said plainly, not in the red of a problem. */
const Allowed = ({ value, policy }: { value: boolean; policy: boolean }) =>
  <span class={value ? 'tone-good' : policy ? 'muted' : 'tone-bad'}>{value ? 'Allowed' : 'Blocked'}</span>;

function LlmsTxt({ report }: { report: Report }) {
  const { llms_txt: file } = report;
  return (
    <div class="ai-llms">
      <h3>llms.txt</h3>
      <p>
        <a href={file.url} target="_blank" rel="noopener noreferrer">/llms.txt</a>:{' '}
        <span class={file.status === 'valid' ? 'tone-good' : file.status === 'invalid' ? 'tone-warn' : 'muted'}>{LLMS_LABEL[file.status]}</span>
        {file.status === 'missing' && <span class="muted"> (optional: an index of your main pages for AI assistants)</span>}
      </p>
      {file.problems.length > 0 && (
        <ul class="ai-problems">{file.problems.map((p) => <li>{p.line !== null && <>Line {p.line}: </>}{p.message}</li>)}</ul>
      )}
      <details class="ai-draft">
        <summary>Draft llms.txt from your pages</summary>
        <pre tabIndex={0} aria-label="Drafted llms.txt">{report.llms_txt_draft}</pre>
      </details>
      <CopyButton text={report.llms_txt_draft} label="Copy draft llms.txt" />
    </div>
  );
}
