import { count, day, dayRange, pagePath, percent, percentChange, points, position, signedCount } from './format.ts';
import { html, SafeHtml } from './html.ts';
import { REPORT_CSS } from './report-css.ts';
import type { Report } from './reports.schemas.ts';

/** The printable page loads nothing and runs nothing: its own inline style and inline images only. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** The same policy in the page itself (the web app opens it from a blob, which has no headers); frame-ancestors has no effect there. */
const META_CSP = REPORT_CSP.replace(/; frame-ancestors 'none'$/, '');

type Mover = Report['top_movers']['queries']['gained'][number];
type KeywordMove = Report['keywords']['gained'][number];

const SEVERITY_WORDS = { critical: 'Critical', error: 'Error', warning: 'Warning', notice: 'Notice' } as const;
const COMPARED = { previous: 'the period before', year: 'the same dates a year before' } as const;

/** A change, green when good and red when bad ("up" is good for clicks, "down" for position). */
const change = (text: string, value: number | null, higherIsBetter = true) => {
  const tone = value === null || value === 0 ? 'flat' : (value > 0) === higherIsBetter ? 'good' : 'bad';
  return html`<span class="${tone}">${text}</span>`;
};
const placesMoved = (p: number | null) =>
  p === null ? '–' : p === 0 ? 'no change' : `${position(Math.abs(p))} ${p < 0 ? 'better' : 'worse'}`;
const empty = (text: string) => html`<p class="empty">${text}</p>`;

function traffic(r: Report): SafeHtml {
  if (!r.traffic.has_data) {
    return empty('No Search Console data for this period yet: once Search Console is connected to the site and its first sync has run, this report shows clicks, impressions and positions.');
  }
  const { current: now, previous: before, change: delta } = r.traffic;
  const tile = (label: string, value: string, was: string | null, moved: SafeHtml | string) => html`
    <div class="tile"><div class="label">${label}</div><div class="value">${value}</div>
      <div class="was">${was === null ? 'no comparison' : html`${moved} <span class="muted">(was ${was})</span>`}</div></div>`;
  return html`
    <div class="tiles">
      ${tile('Clicks', count(now.clicks), before && count(before.clicks), change(percentChange(delta?.clicks ?? null), delta?.clicks ?? null))}
      ${tile('Impressions', count(now.impressions), before && count(before.impressions), change(percentChange(delta?.impressions ?? null), delta?.impressions ?? null))}
      ${tile('Click-through rate', percent(now.ctr), before && percent(before.ctr), change(points(delta?.ctr ?? null), delta?.ctr ?? null))}
      ${tile('Average position', position(now.position), before && position(before.position), change(placesMoved(delta?.position ?? null), delta?.position ?? null, false))}
    </div>
    ${r.comparison.has_data ? '' : html`<p class="note">Search Console data does not reach back to the start of the comparison period (${day(r.comparison.start)}): its figures are partial.</p>`}`;
}

function moversTable(title: string, rows: Mover[], label: string, domain: string, none: string): SafeHtml {
  if (rows.length === 0) return html`<div class="half"><h3>${title}</h3>${empty(none)}</div>`;
  return html`<div class="half"><h3>${title}</h3><table>
    <thead><tr><th>${label}</th><th class="num">Clicks</th><th class="num">Before</th><th class="num">Change</th></tr></thead>
    <tbody>${rows.map((m) => html`<tr><td class="key">${label === 'Page' ? pagePath(m.key, domain) : m.key}</td><td class="num">${count(m.clicks)}</td>
      <td class="num">${count(m.previous_clicks)}</td><td class="num">${change(signedCount(m.clicks_difference), m.clicks_difference)}</td></tr>`)}</tbody></table></div>`;
}

function movers(r: Report): SafeHtml {
  if (!r.traffic.has_data) return empty('No Search Console data for this period yet.');
  const d = r.site.domain;
  return html`
    <div class="pair">${moversTable('Queries gaining clicks', r.top_movers.queries.gained, 'Query', d, 'No query gained clicks.')}
      ${moversTable('Queries losing clicks', r.top_movers.queries.lost, 'Query', d, 'No query lost clicks.')}</div>
    <div class="pair">${moversTable('Pages gaining clicks', r.top_movers.pages.gained, 'Page', d, 'No page gained clicks.')}
      ${moversTable('Pages losing clicks', r.top_movers.pages.lost, 'Page', d, 'No page lost clicks.')}</div>`;
}

function keywordTable(title: string, rows: KeywordMove[], none: string, lost: boolean): SafeHtml {
  if (rows.length === 0) return html`<div class="half"><h3>${title}</h3>${empty(none)}</div>`;
  return html`<div class="half"><h3>${title}</h3><table>
    <thead><tr><th>Query</th><th class="num">Position</th><th class="num">Before</th><th class="num">Impressions</th></tr></thead>
    <tbody>${rows.map((k) => html`<tr><td class="key">${k.query}</td><td class="num">${position(k.position)}</td>
      <td class="num">${position(k.previous_position)}</td><td class="num">${count(lost ? k.previous_impressions : k.impressions)}</td></tr>`)}</tbody></table></div>`;
}

function keywords(r: Report): SafeHtml {
  if (!r.traffic.has_data) return empty('No Search Console data for this period yet.');
  return html`<p class="intro">Queries whose average position entered or left the first page of results (positions 1–10).</p>
    <div class="pair">${keywordTable('Entered the top 10', r.keywords.gained, 'No query entered the top 10 this period.', false)}
    ${keywordTable('Left the top 10', r.keywords.lost, 'No query left the top 10 this period.', true)}</div>`;
}

/** The last scores as labelled bars (score above, audit day below): inline SVG, no script and nothing fetched. */
function scoreBars(history: Report['health']['history']): SafeHtml {
  const scores = history.filter((h) => h.score !== null && h.finished_at !== null).slice(-8);
  if (scores.length < 2) return html``;
  const w = 44;
  const bar = 40; // the height of a score of 100
  return html`<svg class="bars" viewBox="0 0 ${scores.length * w} ${bar + 30}" width="${scores.length * w}" height="${bar + 30}" role="img" aria-label="Health score of the last ${scores.length} audits">
    ${scores.map((s, i) => {
      const h = Math.max(1, (s.score! / 100) * bar);
      return html`<rect x="${i * w + 10}" y="${bar + 12 - h}" width="${w - 20}" height="${h}" rx="2"></rect>
        <text x="${i * w + w / 2}" y="${bar + 9 - h}" text-anchor="middle" class="v">${s.score}</text>
        <text x="${i * w + w / 2}" y="${bar + 25}" text-anchor="middle" class="d">${day(s.finished_at!).slice(0, -5)}</text>`;
    })}</svg>`;
}

function health(r: Report): SafeHtml {
  const h = r.health;
  if (h.score === null) return empty('No audit of the site has completed yet: the health score appears after the first one.');
  return html`<div class="health"><div class="score"><span class="big">${h.score}</span><span class="muted">/100</span></div>
    <div><p>${h.change === null ? 'The first audit\'s score.' : html`${change(signedCount(h.change), h.change)} since the audit before (${h.previous_score}).`}
      Last audited ${h.audited_at ? day(h.audited_at) : ''}.</p>${scoreBars(h.history)}</div></div>
    <p class="note">Out of 100, from the latest audit of the site's pages: the share of pages free of each problem, weighted by its severity.</p>`;
}

function problems(r: Report): SafeHtml {
  if (r.top_problems.audit_id === null) return empty('No audit of the site has completed yet.');
  if (r.top_problems.items.length === 0) return empty('The latest audit found no problems.');
  return html`<table><thead><tr><th>Severity</th><th>Problem</th><th class="num">Affected</th></tr></thead>
    <tbody>${r.top_problems.items.map((p) => html`<tr><td><span class="sev ${p.severity}">${SEVERITY_WORDS[p.severity]}</span></td><td>${p.title}</td><td class="num">${count(p.affected_count)}</td></tr>`)}</tbody></table>`;
}

function effect(t: Report['work_done']['items'][number]): SafeHtml | string {
  if (t.status === 'rolled_back') return 'Rolled back';
  const i = t.impact;
  if (!i) return html`<span class="muted">Not measurable yet</span>`;
  const expected = i.expected_clicks_28d === null ? '' : html` <span class="muted">(expected ${signedCount(i.expected_clicks_28d)})</span>`;
  const clicks = i.realised_clicks_28d === 0 ? 'No change in clicks' : `${signedCount(i.realised_clicks_28d)} clicks / 28 days`;
  return html`${change(clicks, i.realised_clicks_28d)}${expected}
    <div class="muted">position ${position(i.position_before)} → ${position(i.position_after)}, ${i.window_days} days each side</div>`;
}

function work(r: Report): SafeHtml {
  const w = r.work_done;
  if (w.completed === 0) return empty('No task was completed in this period.');
  const more = w.completed > w.items.length ? html`<p class="note">The ${w.items.length} completed last are listed.</p>` : '';
  return html`<p class="intro"><b>${count(w.completed)}</b> ${w.completed === 1 ? 'task' : 'tasks'} completed, <b>${count(w.verified)}</b> verified live,
      <b>${count(w.rolled_back)}</b> rolled back.</p>
    <table><thead><tr><th>Task</th><th>Completed</th><th>Measured effect</th></tr></thead>
    <tbody>${w.items.map((t) => html`<tr><td>${t.title}${t.page ? html`<div class="muted key">${pagePath(t.page, r.site.domain)}</div>` : ''}</td>
      <td class="nowrap">${day(t.completed_at)}</td><td>${effect(t)}</td></tr>`)}</tbody></table>${more}`;
}

function proposals(r: Report): SafeHtml {
  const p = r.proposals;
  if (p.awaiting_approval === 0) return empty('No proposal is waiting for approval.');
  return html`<p class="intro"><b>${count(p.awaiting_approval)}</b> ${p.awaiting_approval === 1 ? 'proposal is' : 'proposals are'} waiting for approval${p.awaiting_approval > p.top.length ? html`; the ${p.top.length} of highest priority:` : ':'}</p>
    <table><thead><tr><th>Proposal</th><th>Priority</th><th class="num">Expected clicks / 28 days</th></tr></thead>
    <tbody>${p.top.map((t) => html`<tr><td>${t.title}</td><td class="cap">${t.priority}</td><td class="num">${t.expected_clicks_28d === null ? '–' : signedCount(t.expected_clicks_28d)}</td></tr>`)}</tbody></table>`;
}

const section = (title: string, body: SafeHtml) => html`<section><h2>${title}</h2>${body}</section>`;

/** The report as one self-contained page for print (A4): inline CSS, no script, nothing fetched. */
export function reportHtml(r: Report): string {
  const agency = r.workspace.personal ? null : r.workspace.name;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${new SafeHtml(META_CSP)}"><title>${r.site.name}: search report ${dayRange(r.period)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${new SafeHtml(REPORT_CSS)}</style></head>
<body><main>
<header>${agency ? html`<div class="agency">${agency}</div>` : ''}
  <h1>${r.site.name}</h1><div class="domain">${r.site.domain}</div>
  <p class="period">Search report for <b>${dayRange(r.period)}</b> (${count(r.period.days)} days), compared with ${COMPARED[r.comparison.mode]}, ${dayRange(r.comparison)}.</p>
</header>
${section('Traffic from Google Search', traffic(r))}
${section('Top movers', movers(r))}
${section('Keywords gained and lost', keywords(r))}
<div class="pair">${section('Site health', health(r))}${section('Top problems found by the audit', problems(r))}</div>
${section('Work done this period', work(r))}
${section('Proposals waiting for approval', proposals(r))}
<footer>Figures from Google Search Console (its days are Pacific Time). Prepared ${day(r.generated_at)}${agency ? html` by ${agency}` : ''}.</footer>
</main></body></html>`.value;
}
