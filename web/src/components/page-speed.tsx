import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { formatNumber } from '../lib/format.ts';
import { PageDetail } from './page-speed-detail.tsx';
import { FIELD_LABEL, LAB_LABEL, metricOf, pathOf, RatingTag, type Field, type Lab, type Rating, type Report, type SpeedPage } from './page-speed-parts.tsx';
import { Async, useAsync } from './ui.tsx';
import '../styles/page-speed.css';

/** The lab's three vitals: the ones the audit's checks judge (INP needs real visitors; TBT stands in for it in the lab). */
const LAB: Array<[Lab['metrics'][number]['id'], string]> = [['lcp', 'LCP'], ['cls', 'CLS'], ['tbt', 'TBT']];
/** Google's assessment in the field: LCP, INP and CLS at the 75th percentile of real visits. */
const FIELD: Array<[Field['metrics'][number]['id'], string]> = [['lcp', 'LCP'], ['inp', 'INP'], ['cls', 'CLS']];

async function load(auditId: string) {
  try {
    return unwrap(await api.GET('/api/v1/audits/{audit_id}/page-speed', { params: { path: { audit_id: auditId } } }));
  } catch (e) {
    const status = (e as ApiError).status;
    if (status === 404) return null; // nothing measured: an audit from before, or neither Lighthouse nor CrUX set up
    if (status === 409) return 'running'; // reported once the audit completes; the audit view refreshes then
    throw e;
  }
}

/** How fast the site's templates are on phones: Lighthouse on one page per template, and real visits where Google has them. */
export function PageSpeed({ auditId }: { auditId: string }) {
  const state = useAsync(() => load(auditId), [auditId]);
  return (
    <Async state={state} label="Loading Core Web Vitals">
      {(report) => report !== 'running' && (
        <section class="page-speed panel" aria-labelledby="page-speed-title">
          <h2 id="page-speed-title">Core Web Vitals</h2>
          {report === null ? <p class="muted">Page speed was not measured for this audit: it ran before audits measured Core Web Vitals, or on a server with Lighthouse turned off and no Chrome UX Report key.</p> : (
            <>
              <Verdict report={report} />
              <OriginField report={report} />
              <Pages report={report} />
              <Notes report={report} />
            </>
          )}
        </section>
      )}
    </Async>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatNumber(n)} ${n === 1 ? one : many}`;
const templateName = (p: SpeedPage) => (p.template === '/' ? 'the home page' : p.template);
/** A template passes when its lab LCP, CLS and TBT are all good (a metric Lighthouse could not read does not count against it). */
const passes = (lab: Lab) => LAB.every(([id]) => (metricOf(lab, id)?.rating ?? 'good') === 'good');

const scoreRating = (score: number): NonNullable<Rating> => (score >= 90 ? 'good' : score >= 50 ? 'needs_improvement' : 'poor'); // Lighthouse's bands

/** One sentence: how many measured templates pass in the lab, which need work, and why Lighthouse did not run if it did not. */
function Verdict({ report: r }: { report: Report }) {
  if (!r.available) return <p class="cwv-verdict tone-warn">Not measured in the lab: {r.unavailable ?? 'Lighthouse could not start'}.</p>;
  const measured = r.pages.filter((p) => p.lab !== null);
  const failed = r.pages.length - measured.length;
  const failedNote = failed > 0 && <> {plural(failed, 'page')} could not be measured.</>;
  if (measured.length === 0) return <p class="cwv-verdict tone-warn">{r.pages.length === 0 ? 'No page could be measured: the crawl found no indexable HTML page.' : <>Lighthouse could not measure any page.{failedNote}</>}</p>;
  const slow = measured.filter((p) => !passes(p.lab!));
  if (slow.length === 0) {
    return <p class="cwv-verdict tone-good">{measured.length === 1 ? 'The template measured passes' : `All ${formatNumber(measured.length)} templates measured pass`} on phones: LCP, CLS and TBT are good in the lab.{failedNote}</p>;
  }
  // Red only for a poor LCP, CLS or TBT: the metrics the sentence names (a poor FCP alone is no reason to alarm).
  const poor = slow.some((p) => LAB.some(([id]) => metricOf(p.lab!, id)?.rating === 'poor'));
  const names = slow.slice(0, 3).map(templateName).join(', ') + (slow.length > 3 ? ` and ${formatNumber(slow.length - 3)} more` : '');
  const ok = measured.length - slow.length;
  // Counted over every row of the table (a template Lighthouse could not measure is one of them), in one sentence.
  const parts = [`${formatNumber(slow.length)} ${slow.length === 1 ? 'needs' : 'need'} work (${names})`, ...(ok > 0 ? [`${formatNumber(ok)} ${ok === 1 ? 'passes' : 'pass'}`] : []),
    ...(failed > 0 ? [`${formatNumber(failed)} could not be measured`] : [])];
  return (
    <p class={`cwv-verdict ${poor ? 'tone-bad' : 'tone-warn'}`}>
      {plural(r.pages.length, 'template')} on phones: {parts.join(', ')}. A template needs work when its LCP, CLS or TBT is not good in the lab.
    </p>
  );
}

/** The whole site's real visits, once; or why there are none. */
function OriginField({ report: r }: { report: Report }) {
  if (!r.field_configured) {
    return <p class="muted small">Field data from real Chrome users is not set up for this installation; your administrator can enable it.</p>;
  }
  if (r.field_error) return <p class="notice notice-warn">Field data could not be read from the Chrome UX Report: {r.field_error}</p>;
  const f = r.origin_field;
  if (!f) return <p class="muted small">{FIELD_LABEL}: Google has too few visits to this site for field data.</p>;
  return (
    <div class="cwv-origin">
      <h3 class="cwv-subhead">{FIELD_LABEL}: the whole site on phones</h3>
      <p class={f.passes ? 'tone-good' : 'tone-bad'}><strong>{f.passes ? 'Passes' : 'Does not pass'} Google's Core Web Vitals assessment</strong> <span class="muted">(LCP, INP and CLS all good for 75% of visits)</span></p>
      <ul class="cwv-field-list">
        {FIELD.map(([id, label]) => {
          const m = f.metrics.find((x) => x.id === id);
          return <li>{label} <strong>{m ? m.display : '—'}</strong> {m ? <RatingTag rating={m.rating} /> : <span class="muted">too few visits</span>}</li>;
        })}
      </ul>
    </div>
  );
}

function Pages({ report: r }: { report: Report }) {
  const lab = r.available;
  const field = r.pages.some((p) => p.field !== null);
  if (r.pages.length === 0 || (!lab && !field)) return null;
  return (
    <>
      <h3 class="cwv-subhead">One page per template</h3>
      <div class="table-wrap">
        <table class="table compact stacked cwv-pages">
          <caption class="sr-only">Core Web Vitals of each measured page: {[lab && LAB_LABEL, field && FIELD_LABEL].filter(Boolean).join(' and ')}</caption>
          <colgroup><col /></colgroup>
          {lab && <colgroup span={4} />}
          {field && <colgroup span={3} />}
          <thead>
            <tr>
              <th scope="col" rowSpan={2}>Page</th>
              {lab && <th scope="colgroup" colSpan={4}>{LAB_LABEL}</th>}
              {field && <th scope="colgroup" colSpan={3} class="cwv-field-start">{FIELD_LABEL}</th>}
            </tr>
            <tr>
              {lab && <><th scope="col">Score</th>{LAB.map(([, label]) => <th scope="col">{label}</th>)}</>}
              {field && FIELD.map(([, label], i) => <th scope="col" class={i === 0 ? 'cwv-field-start' : undefined}>{label}</th>)}
            </tr>
          </thead>
          <tbody>{r.pages.map((p, i) => <PageRow key={p.url} page={p} id={`cwv-page-${i}`} lab={lab} field={field} />)}</tbody>
        </table>
      </div>
    </>
  );
}

function PageRow({ page: p, id, lab, field }: { page: SpeedPage; id: string; lab: boolean; field: boolean }) {
  const [open, setOpen] = useState(false);
  const path = pathOf(p.url);
  const none = <span class="muted">—</span>;
  return (
    <>
      <tr class={p.error ? 'cwv-failed' : undefined}>
        <td>
          <button type="button" class="cwv-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)} title={p.url}>
            <span class="url">{breakable(path)}</span>{path === '/' && <span class="muted"> (home page)</span>} <span class="chevron" aria-hidden="true">{open ? '▴' : '▾'}</span>
          </button>
          {/* The home page is a template of its own: the button says so. */}
          {p.template !== '/' && <span class="cwv-template small muted">Template <code>{p.template}</code> · <span class="cwv-nowrap">{p.pages_in_template === 1 ? 'the only page like it' : `${plural(p.pages_in_template, 'page')} like it`}</span></span>}
        </td>
        {/* A page without a value (not measured, too few visits) says so once across its columns, not in each. */}
        {lab && (p.lab ? (
          <>
            <td data-label="Lab score"><Metric display={`${p.lab.score}`} suffix="/100" rating={scoreRating(p.lab.score)} /></td>
            {LAB.map(([mid, label]) => {
              const m = metricOf(p.lab!, mid);
              return <td data-label={`Lab ${label}`}>{m ? <Metric display={m.display} rating={m.rating} /> : none}</td>;
            })}
          </>
        ) : <td colSpan={4} data-label="Lab">{p.error ? <span class="tone-bad">Not measured (open the row for why)</span> : none}</td>)}
        {field && (p.field ? FIELD.map(([mid, label], i) => {
          const m = p.field!.metrics.find((x) => x.id === mid);
          return <td data-label={`Field ${label}`} class={i === 0 ? 'cwv-field-start' : undefined}>{m ? <Metric display={m.display} rating={m.rating} /> : none}</td>;
        }) : <td colSpan={3} data-label="Field" class="cwv-field-start"><span class="muted small">Too few visits for data of its own</span></td>)}
      </tr>
      {open && (
        <tr class="cwv-detail" id={id}>
          <td colSpan={1 + (lab ? 4 : 0) + (field ? 3 : 0)}><PageDetail page={p} /></td>
        </tr>
      )}
    </>
  );
}

/** A path that may wrap after each slash (a long slug breaks at its hyphens on its own), not in the middle of a word. */
const breakable = (path: string) => path.split('/').map((part, i) => <>{i > 0 && <>/<wbr /></>}{part}</>);

function Metric({ display, suffix, rating }: { display: string; suffix?: string; rating: Rating }) {
  return <span class="cwv-metric"><span class="cwv-value">{display}{suffix && <span class="muted">{suffix}</span>}</span> <RatingTag rating={rating} /></span>;
}

const duration = (ms: number) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`);
/** How long measuring took, and what the address guard kept the browser from. */
function Notes({ report: r }: { report: Report }) {
  if (!r.available && r.refused.length === 0) return null;
  return (
    <p class="cwv-notes muted small">
      {r.available && <>Measuring took {duration(r.measured_ms)}. </>}
      {r.refused.length > 0 && <>The pages asked for {plural(r.refused.length, 'private or internal address', 'private or internal addresses')}, blocked: {r.refused.slice(0, 3).map((a, i) => <>{i > 0 && ', '}<span class="url">{a}</span></>)}{r.refused.length > 3 && ' …'}.</>}
    </p>
  );
}
