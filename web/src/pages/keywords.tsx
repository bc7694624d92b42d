import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { downloadFile } from '../api/download.ts';
import type { paths } from '../generated/api';
import { ExportButton, useExport } from '../components/export-button.tsx';
import { KeywordFilters, useKeywordQuery, type KeywordFilterValues, type SortKey } from '../components/keyword-filters.tsx';
import { KeywordHistory } from '../components/keyword-history.tsx';
import { TagChips, TagEditor } from '../components/keyword-tags.tsx';
import { WithSite } from '../components/site-picker.tsx';
import { Async, describedBy, Empty, ErrorNotice, Field, PageHeader, Pager, useAsync } from '../components/ui.tsx';
import { fieldErrors, formatDate, formatNumber, humanize, positionDelta } from '../lib/format.ts';
import { atLeast, useWorkspaces } from '../lib/workspaces.ts';
import '../styles/keywords.css';

const PAGE_SIZE = 50;

export function KeywordsPage() {
  const workspaces = useWorkspaces();
  return (
    <WithSite>
      {(site, picker) => {
        const role = workspaces?.find((w) => w.id === site.workspace_id)?.role;
        return <KeywordsSection key={site.id} siteId={site.id} name={site.name} picker={picker} canEdit={atLeast(role, 'editor')} viewOnly={role === 'viewer'} />;
      }}
    </WithSite>
  );
}

function KeywordsSection({ siteId, name, picker, canEdit, viewOnly }: { siteId: string; name: string; picker: preact.ComponentChildren; canEdit: boolean; viewOnly: boolean }) {
  const state = useKeywordQuery(siteId);
  // Every keyword the filters select, in the table's order (not only the page on screen).
  const exporter = useExport(() => {
    const sort = tableSort(state.query);
    return downloadFile('/api/v1/keywords/export', { query: { site_id: siteId, sort: sort.key, order: sort.dir, ...state.filters } });
  });
  return (
    <section class="page">
      <PageHeader title={<span tabIndex={-1}>Keywords</span>} subtitle={`What ${name} ranks for in Google search.`} actions={<>{picker}<ExportButton exporter={exporter} /></>} />
      {exporter.error !== undefined && <ErrorNotice error={exporter.error} />}
      <Keywords siteId={siteId} canEdit={canEdit} viewOnly={viewOnly} state={state} />
    </section>
  );
}

/** The API's sort keys (its schema); the table offers the columns it shows. Volume and difficulty say what they are (their unit, and whether they are estimates). */
const COLUMNS: Array<{ key: SortKey; label: string; numeric?: boolean; unit?: string }> = [
  { key: 'keyword', label: 'Keyword' }, { key: 'position', label: 'Position', numeric: true }, { key: 'change', label: 'Change', numeric: true },
  { key: 'volume', label: 'Volume', numeric: true, unit: 'per month' }, { key: 'difficulty', label: 'Difficulty', numeric: true, unit: '0–100' },
  { key: 'intent', label: 'Intent' }, { key: 'url', label: 'URL' },
];
type Keyword = paths['/api/v1/keywords']['get']['responses'][200]['content']['application/json']['items'][number];
/**
 * Whether a keyword has volume and difficulty figures: estimated ones come from Search Console's impressions, so a keyword
 * with none yet (one added by hand, say) has no estimate: the API's 0 then means "not available", not "no searches".
 */
const hasVolume = (k: Keyword) => !(k.volume_source === 'estimated' && k.search_volume === 0);
/** "est." before an estimate's unit; a provider's figures are not estimates of ours. */
const unitOf = (unit: string, estimated: boolean) => (estimated ? `est. ${unit}` : unit);

/** The table's order, as the address holds it: the API's, over the whole list (not the loaded page). */
const tableSort = (query: Record<string, string>) =>
  ({ key: (COLUMNS.find((c) => c.key === query.sort)?.key ?? 'volume') as SortKey, dir: query.order === 'asc' ? 'asc' as const : 'desc' as const });

type KeywordState = ReturnType<typeof useKeywordQuery>;
type Row = { id: string; keyword: string; tags: string[] };

function Keywords({ siteId, canEdit, viewOnly, state }: { siteId: string; canEdit: boolean; viewOnly: boolean; state: KeywordState }) {
  const { query, set, filters, active, clear, page } = state;
  // The order lives in the URL like the page and the filters.
  const sort = tableSort(query);
  const filterKey = JSON.stringify(filters);
  const stats = useAsync(async () => unwrap(await api.GET('/api/v1/keywords/stats', { params: { query: { site_id: siteId } } })), [siteId]);
  const tags = useAsync(async () => unwrap(await api.GET('/api/v1/keywords/tags', { params: { query: { site_id: siteId } } })).items, [siteId]);
  const list = useAsync(async () => unwrap(await api.GET('/api/v1/keywords', { params: { query: { site_id: siteId, sort: sort.key, order: sort.dir, page, page_size: PAGE_SIZE, ...filters } } })), [siteId, sort.key, sort.dir, page, filterKey]);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string; undo?: { id: string; keyword: string } } | undefined>();
  const [history, setHistory] = useState<Row | undefined>();
  const [editing, setEditing] = useState<Row | undefined>();
  const reload = () => { void stats.reload(); void list.reload(); void tags.reload(); };

  /** Stops tracking a keyword (asked first, unless it is an Undo): from its dialog, away from the row's everyday Tags. */
  const remove = async (id: string, keyword: string, ask = true) => {
    if (ask && !window.confirm(`Stop tracking “${keyword}”?`)) return;
    try {
      unwrap(await api.DELETE('/api/v1/keywords/{keyword_id}', { params: { path: { keyword_id: id } } }));
      setMessage({ kind: 'success', text: `“${keyword}” is no longer tracked.` });
      reload();
    } catch (e) {
      setMessage({ kind: 'error', text: (e as ApiError).message });
    }
  };

  return (
    <>
      <Async state={stats} label="Loading keyword statistics">
        {(s) => (
          <div class="cards">
            <div class="card stat"><span class="stat-label">Tracked</span><span class="stat-value">{formatNumber(s.total_keywords)}</span><span class="muted small">{formatNumber(s.total_search_volume, { compact: true })} searches a month (est.)</span></div>
            <div class="card stat"><span class="stat-label">Top 3 / top 10</span><span class="stat-value">{formatNumber(s.keywords_in_top_3)} / {formatNumber(s.keywords_in_top_10)}</span><span class="muted small">{formatNumber(s.keywords_in_top_100)} in top 100</span></div>
            <div class="card stat"><span class="stat-label">Average position</span><span class="stat-value">{formatNumber(s.average_position, { digits: 1 })}</span><span class="muted small">over ranking keywords</span></div>
            <div class="card stat"><span class="stat-label">Movement</span><span class="stat-value"><span class="tone-good">▲{s.position_changes.improved}</span> <span class="tone-bad">▼{s.position_changes.declined}</span></span><span class="muted small">{s.position_changes.unchanged} unchanged</span></div>
          </div>
        )}
      </Async>
      {viewOnly && <p class="notice notice-info">You can view this site's keywords; an editor or above adds and removes them and sets their tags.</p>}
      {canEdit && <AddKeyword siteId={siteId} onAdded={(k) => { setMessage({ kind: 'success', text: `“${k.keyword}” is now tracked; its position shows once Search Console reports it.`, undo: k }); reload(); }} />}
      {message && (
        <div class={`notice notice-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          <p>{message.text}</p>
          {message.undo && <button type="button" class="btn btn-small" onClick={() => remove(message.undo!.id, message.undo!.keyword, false)}>Undo</button>}
        </div>
      )}
      <KeywordFilters filters={filters} active={active} tags={tags.data} set={set} />
      <Async state={list} label="Loading keywords">
        {(result) => result.total === 0 ? (
          active > 0 ? (
            <Empty title="No keywords match these filters">
              <p>{describeFilters(filters)}</p>
              <button type="button" class="btn btn-small" onClick={clear}>Clear filters</button>
            </Empty>
          ) : (
            <Empty title="No keywords yet">
              <p>Keywords appear once Search Console data is synced: {canEdit ? <>link a property in <a href="/settings">Settings</a>, or track the ones you care about above.</> : <>an admin links a property in Settings, or an editor tracks keywords by hand.</>}</p>
            </Empty>
          )
        ) : (() => {
          const estimated = result.items.some((k) => k.volume_source === 'estimated');
          const providers = [...new Set(result.items.map((k) => k.volume_source).filter((source) => source !== 'estimated'))];
          const unitFor = (key: SortKey) => { const unit = COLUMNS.find((c) => c.key === key)!.unit!; return unitOf(unit, estimated); };
          // Difficulty only from a keyword-data provider: the API's estimate without one is a function of the volume (the
          // contract wants a number), and a column of it would read as how hard a keyword is, which nothing here measured.
          const withDifficulty = providers.length > 0;
          const columns = COLUMNS.filter((c) => c.key !== 'difficulty' || withDifficulty);
          return (
          <>
            <div class="kw-count">
              <p class="muted small" aria-live="polite">
                {active > 0
                  ? <><strong class="kw-total">{formatNumber(result.total)}</strong> {result.total === 1 ? 'keyword matches' : 'keywords match'} these filters{stats.data ? ` (of ${formatNumber(stats.data.total_keywords)} tracked)` : ''}</>
                  : <><strong class="kw-total">{formatNumber(result.total)}</strong> {result.total === 1 ? 'keyword' : 'keywords'}</>}
              </p>
              {active > 0 && <button type="button" class="btn btn-small btn-ghost" onClick={clear}>Clear filters</button>}
            </div>
            <div class="table-wrap">
              <table class="table keywords-table stacked">
                <caption class="sr-only">Keywords{active > 0 ? ' matching the filters' : ''}, sorted by {sort.key} ({sort.dir === 'asc' ? 'ascending' : 'descending'})</caption>
                <thead>
                  <tr>
                    {columns.map((c) => (
                      <th scope="col" class={c.numeric ? 'num' : undefined} aria-sort={sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                        <button type="button" class="sort" onClick={() => set({ sort: c.key, order: sort.key === c.key && sort.dir === 'desc' ? 'asc' : sort.key === c.key ? 'desc' : c.numeric ? 'desc' : 'asc' })}>
                          {c.unit ? <span class="th-label">{c.label}<span class="th-unit">{unitFor(c.key)}</span></span> : c.label}<span aria-hidden="true" class="sort-mark">{sort.key === c.key ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}</span>
                        </button>
                      </th>
                    ))}
                    <th scope="col"><span class="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  {result.items.map((k) => {
                    const delta = positionDelta(k.current_position, k.previous_position);
                    return (
                      <tr>
                        <td class="kw-cell">
                          <button type="button" class="kw-name" onClick={() => setHistory(k)} aria-haspopup="dialog" aria-label={`Rank history of ${k.keyword}`}>{k.keyword}</button>
                          {k.source === 'manual' && <span class="badge badge-muted">added</span>}
                          <TagChips tags={k.tags} />
                        </td>
                        <td class="num" data-label="Position">{k.current_position ?? <span class="muted">—</span>}</td>
                        <td class={`num tone-${delta ? (delta > 0 ? 'good' : 'bad') : 'neutral'}`} data-label="Change">{delta ? `${delta > 0 ? '▲' : '▼'}${Math.abs(delta)}` : <span class="muted">—</span>}</td>
                        <td class="num" data-label={`Volume (${unitFor('volume')})`}>{hasVolume(k) ? formatNumber(k.search_volume) : <NotAvailable />}</td>
                        {withDifficulty && <td class="num" data-label={`Difficulty (${unitFor('difficulty')})`}>{k.volume_source !== 'estimated' ? <Difficulty value={k.difficulty} /> : <NotAvailable />}</td>}
                        <td data-label="Intent">{humanize(k.intent)}</td>
                        <td class="url" data-label="URL">{k.url ? <a href={k.url} target="_blank" rel="noopener noreferrer">{k.url.replace(/^https?:\/\/[^/]+/, '') || '/'}</a> : <span class="muted">—</span>}</td>
                        <td data-label="" class="kw-actions">
                          {canEdit && (
                            <div class="row-actions">
                              <button type="button" class="btn btn-small btn-ghost" onClick={() => setEditing(k)} aria-haspopup="dialog" aria-label={`Edit tags of ${k.keyword}`}>Tags</button>
                            </div>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <p class="muted small kw-note">
              Updated {formatDate(result.items[0]?.updated_at)}.{' '}
              {estimated && <>Volume is our estimate, not a keyword tool’s: searches a month, from Search Console’s impressions at the keyword’s position (n/a: no impressions to estimate from yet). Difficulty needs a keyword-data provider: from Search Console alone it would only restate the volume.{' '}</>}
              {providers.length > 0 && <>{estimated ? 'Others’ volume' : 'Volume'} and difficulty come from {providers.join(', ')}.{' '}</>}
              Choose a keyword to see its rank history{canEdit ? ' or stop tracking it' : ''}.
            </p>
            <Pager page={result.page} pageSize={PAGE_SIZE} total={result.total} onPage={(p) => set({ page: String(p) })} />
          </>
          );
        })()}
      </Async>
      {history && (
        <KeywordHistory
          keyword={history} onClose={() => setHistory(undefined)}
          onRemove={canEdit ? () => { if (!window.confirm(`Stop tracking “${history.keyword}”?`)) return; setHistory(undefined); void remove(history.id, history.keyword, false); } : undefined}
        />
      )}
      {editing && (
        <TagEditor
          keyword={editing}
          suggestions={(tags.data ?? []).map((t) => t.tag)}
          onClose={() => setEditing(undefined)}
          onSaved={(saved) => {
            setEditing(undefined);
            setMessage({ kind: 'success', text: saved.length ? `“${editing.keyword}” is tagged ${saved.map((t) => `“${t}”`).join(', ')}.` : `“${editing.keyword}” has no tags now.` });
            reload();
          }}
        />
      )}
    </>
  );
}

/** The filters set, in words, for the empty list. */
function describeFilters(f: KeywordFilterValues) {
  const parts = [
    f.search && `containing “${f.search}”`, f.position && (f.position === 'unranked' ? 'not ranking' : `position ${f.position.replace('-', '–')}`),
    f.change && ({ improved: 'moved up', declined: 'moved down', unchanged: 'unchanged', new: 'new' } as const)[f.change],
    f.intent && `${f.intent} intent`, f.tag && `tagged “${f.tag}”`,
  ].filter(Boolean);
  return `Filters set: ${parts.join(', ')}. Clear them, or change one, to see more keywords.`;
}

/** No figure: said in words to a screen reader, and in the note under the table. */
function NotAvailable() {
  return <span class="muted kw-na" title="Not available: no Search Console impressions to estimate from yet">n/a<span class="sr-only"> (not available)</span></span>;
}

function Difficulty({ value }: { value: number }) {
  const tone = value >= 70 ? 'bad' : value >= 40 ? 'warn' : 'good';
  return <span class={`difficulty tone-${tone}`}>{value}<span class="sr-only"> of 100</span></span>;
}

function AddKeyword({ siteId, onAdded }: { siteId: string; onAdded: (added: { id: string; keyword: string }) => void }) {
  const [keyword, setKeyword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [other, setOther] = useState<unknown>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setOther(undefined);
    try {
      const added = unwrap(await api.POST('/api/v1/keywords', { body: { site_id: siteId, keyword: keyword.trim() } }));
      onAdded({ id: added.id, keyword: added.keyword });
      setKeyword('');
    } catch (e) {
      const fields = fieldErrors((e as ApiError).problem?.errors);
      if (fields.keyword) setError(fields.keyword);
      else if ((e as ApiError).status === 409) setError((e as ApiError).message);
      else setOther(e);
    }
  };
  return (
    <form class="inline-form kw-add" onSubmit={submit}>
      <Field id="new-keyword" label="Track a keyword" error={error}>
        <div class="input-with-button">
          <input id="new-keyword" value={keyword} required maxLength={200} onInput={(e) => setKeyword(e.currentTarget.value)} placeholder="e.g. rose bushes for sale" {...describedBy('new-keyword', error)} />
          <button type="submit" class="btn btn-primary">Add</button>
        </div>
      </Field>
      {other !== undefined && <ErrorNotice error={other} />}
    </form>
  );
}
