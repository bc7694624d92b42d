import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import { DiffView } from '../components/diff.tsx';
import { CategoryFilter, FilterBar, SiteFilter, useFilters } from '../components/filters.tsx';
import { loadSites } from '../components/site-picker.tsx';
import { Address, Evidence, ExpectedClicks, PlannedWork, RejectReason, TargetLine, type Worth } from '../components/task-parts.tsx';
import { riskOf } from '../lib/risk.ts';
import { Async, Badge, Empty, PageHeader, Pager, useAsync } from '../components/ui.tsx';
import { changesOf, pageCount } from '../lib/diff.ts';
import { TASK_TYPES } from '../generated/task-types.ts';
import { errorMessage, formatRelative, humanize } from '../lib/format.ts';
import { atLeast, useShownWorkspace, useSiteRoles } from '../lib/workspaces.ts';

const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
const isPriority = (value: string): value is (typeof PRIORITIES)[number] => (PRIORITIES as readonly string[]).includes(value);
const isTaskType = (value: string): value is (typeof TASK_TYPES)[number] => (TASK_TYPES as readonly string[]).includes(value);
const PAGE_SIZE = 25;
type Task = { id: string; title: string; description: string; type: string; status: string; priority: string; site_id: string; created_at: string; expected_clicks: Worth };
/** The queue's orders: most expected clicks first (the app's default), or the API's default, priority then age. */
const ORDERS = { expected_clicks: 'Most clicks expected', priority: 'Priority, then oldest' } as const;

/** The approval queue: what the agent proposes, most clicks expected first, to approve or reject (the API's cancel, with an optional reason) one or many at once. */
export function ApprovalsPage() {
  const { query, setFilter, site, category, page } = useFilters();
  const type = query.type ?? '';
  const priority = query.priority ?? '';
  const order = query.order === 'priority' ? 'priority' : 'expected_clicks';

  const sites = useAsync(loadSites, []);
  const workspace = useShownWorkspace();
  const queue = useAsync(async () => {
    // Filtered and ordered by the API before paging: every page of the queue, not the loaded one.
    const filters = {
      // No site chosen: the top bar's workspace, if one is chosen.
      ...(site ? { site_id: site } : workspace ? { workspace_id: workspace.id } : {}), ...(category ? { category } : {}),
      ...(isTaskType(type) ? { type } : {}), ...(isPriority(priority) ? { priority } : {}),
    };
    return unwrap(await api.GET('/api/v1/tasks/awaiting-approval', { params: { query: { page, page_size: PAGE_SIZE, order, ...filters } } }));
  }, [site, workspace?.id, category, type, priority, order, page]);

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [rejecting, setRejecting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'success' | 'error'; text: string } | undefined>();

  const act = async (ids: string[], action: 'approve' | 'cancel', reason?: string) => {
    setBusy(true);
    setOutcome(undefined);
    const failures: string[] = [];
    for (const id of ids) {
      const path = { params: { path: { task_id: id } } };
      try {
        // Each action answers its own status, so each response is unwrapped on its own.
        if (action === 'approve') unwrap(await api.POST('/api/v1/tasks/{task_id}/approve', path));
        else unwrap(await api.POST('/api/v1/tasks/{task_id}/cancel', { ...path, body: reason?.trim() ? { reason: reason.trim() } : null }));
      } catch (e) {
        failures.push(errorMessage(e));
      }
    }
    const done = ids.length - failures.length;
    const verb = action === 'approve' ? 'approved and queued' : 'rejected (nothing changes on the site)';
    setOutcome(failures.length
      ? { kind: 'error', text: `${done} of ${ids.length} ${verb}. ${failures[0]}` }
      : { kind: 'success', text: `${done} proposal${done === 1 ? '' : 's'} ${verb}.` });
    setSelected(new Set());
    setBusy(false);
    await queue.reload();
  };

  const siteName = (id: string) => sites.data?.find((s) => s.id === id)?.name ?? '';
  const visible = queue.data?.items ?? [];
  // Approving and rejecting take an editor: a viewer's cards have no buttons that would answer 403.
  const { roleOf, loaded } = useSiteRoles(sites.data);
  const canAct = (task: Task) => atLeast(roleOf(task.site_id), 'editor');
  const actable = visible.filter(canAct);

  return (
    <section class="page">
      <PageHeader title={<span tabIndex={-1}>Approval queue</span>} subtitle={`Nothing changes on your sites until you approve it. ${order === 'priority' ? 'Highest priority first.' : 'Most clicks expected first.'}`} />
      <FilterBar id="proposal-filters" label="Filter proposals" active={[site, category, type, priority].filter(Boolean).length}>
        <SiteFilter sites={sites.data} value={site} onChange={(v) => setFilter('site', v)} />
        <CategoryFilter value={category ?? ''} onChange={(v) => setFilter('category', v)} />
        <label>Type
          <select value={type} onChange={(e) => setFilter('type', e.currentTarget.value)}>
            <option value="">All types</option>
            {[...TASK_TYPES].sort().map((t) => <option value={t}>{humanize(t)}</option>)}
          </select>
        </label>
        <label>Priority
          <select value={priority} onChange={(e) => setFilter('priority', e.currentTarget.value)}>
            <option value="">All priorities</option>
            {PRIORITIES.map((p) => <option value={p}>{humanize(p)}</option>)}
          </select>
        </label>
        <label>Order
          <select value={order} onChange={(e) => setFilter('order', e.currentTarget.value === 'expected_clicks' ? '' : e.currentTarget.value)}>
            {Object.entries(ORDERS).map(([value, label]) => <option value={value}>{label}</option>)}
          </select>
        </label>
      </FilterBar>

      {outcome && <p class={`notice notice-${outcome.kind}`} role={outcome.kind === 'error' ? 'alert' : 'status'}>{outcome.text}</p>}

      <Async state={queue} label="Loading proposals">
        {(result) => visible.length === 0 ? (
          <Empty title={!(category || type || priority) ? 'Nothing to review' : 'No proposals match these filters'}>
            <p>{!(category || type || priority) ? 'When an audit or a search-data sync finds something to fix, the agent’s proposals appear here.' : 'Clear a filter to see the others.'}</p>
          </Empty>
        ) : (
          <>
            {loaded && actable.length < visible.length && (
              <p class="notice notice-info">{actable.length === 0 ? 'You can view these proposals' : 'Some of these proposals are on sites you can only view'}: an editor or above in the site's workspace can approve or reject them.</p>
            )}
            {actable.length > 0 && (
            // It follows the scroll only while something is selected: a sticky bar with nothing to act on hid the cards
            // under it and left a gap where it belongs (seen in the queue sorted by clicks).
            <div class={selected.size > 0 ? 'bulkbar bulkbar-sticky' : 'bulkbar'} role="group" aria-label="Bulk actions">
              <label class="check">
                <input type="checkbox" checked={actable.every((t) => selected.has(t.id))} onChange={(e) => setSelected(e.currentTarget.checked ? new Set(actable.map((t) => t.id)) : new Set())} />
                Select all {actable.length}
              </label>
              <span class="muted" aria-live="polite">{selected.size} selected</span>
              <button type="button" class="btn btn-primary btn-small" disabled={busy || selected.size === 0} onClick={() => act([...selected], 'approve')}>Approve selected</button>
              <button type="button" class="btn btn-small" disabled={busy || selected.size === 0} onClick={() => setRejecting(true)}>Reject selected…</button>
              {rejecting && selected.size > 0 && (
                <RejectReason count={selected.size} busy={busy} onReject={async (reason) => { await act([...selected], 'cancel', reason); setRejecting(false); }} onKeep={() => setRejecting(false)} />
              )}
            </div>
            )}
            <ol class="proposals">
              {visible.map((task) => (
                <ProposalCard
                  task={task}
                  siteName={siteName(task.site_id)}
                  selected={selected.has(task.id)}
                  busy={busy}
                  canAct={canAct(task)}
                  onSelect={(on) => { const next = new Set(selected); if (on) next.add(task.id); else next.delete(task.id); setSelected(next); }}
                  onAct={(action, reason) => act([task.id], action, reason)}
                />
              ))}
            </ol>
            <Pager page={result.page} pageSize={PAGE_SIZE} total={result.total} onPage={(p) => setFilter('page', String(p))} />
          </>
        )}
      </Async>
    </section>
  );
}

function ProposalCard({ task, siteName, selected, busy, canAct, onSelect, onAct }: { task: Task; siteName: string; selected: boolean; busy: boolean; canAct: boolean; onSelect: (on: boolean) => void; onAct: (action: 'approve' | 'cancel', reason?: string) => void }) {
  const detail = useAsync(async () => unwrap(await api.GET('/api/v1/tasks/{task_id}', { params: { path: { task_id: task.id } } })), [task.id]);
  const [rejecting, setRejecting] = useState(false);
  const headingId = `proposal-${task.id}`;
  return (
    <li class={`proposal card priority-${task.priority}`} aria-labelledby={headingId}>
      <div class="proposal-head">
        {canAct && <input type="checkbox" class="proposal-check" checked={selected} onChange={(e) => onSelect(e.currentTarget.checked)} aria-label={`Select: ${task.title}`} />}
        <div class="proposal-title">
          <h2 id={headingId}><a href={`/tasks/${task.id}`}>{task.title}</a></h2>
          <p class="muted small">{humanize(task.type)}{siteName && <> · {siteName}</>} · proposed {formatRelative(task.created_at)}</p>
          <ExpectedClicks worth={task.expected_clicks} />
        </div>
        <Badge value={task.priority} label={`${task.priority} priority`} />
      </div>
      <Async state={detail} label="Loading the proposal">
        {(d) => {
          const changes = changesOf(d.configuration);
          const risk = riskOf(d);
          return (
            <div class="proposal-body">
              {pageCount(d.configuration) > 1
                ? <p class="target"><span class="muted">{pageCount(d.configuration)} pages</span>, each with its own change, starting with <a href={d.target} class="url" target="_blank" rel="noopener noreferrer"><Address url={d.target} /></a></p>
                : <TargetLine target={d.target} />}
              {changes.slice(0, 3).map((c) => <DiffView change={c} />)}
              {changes.length > 3 && <p class="muted small">and {changes.length - 3} more changes — <a href={`/tasks/${task.id}`}>see all</a></p>}
              {changes.length === 0 && <PlannedWork configuration={d.configuration} />}
              <div class="proposal-grid">
                <div><h3>Why</h3><p>{d.description}</p></div>
                {/* Folded: the card says what changes, why and at what risk; the data behind it is one click away. */}
                <details class="evidence-fold"><summary><h3>Evidence</h3></summary><Evidence evidence={d.evidence} /></details>
                <div><h3>Risk</h3><p><span class={`risk risk-${risk.level}`}>{risk.label}</span> {risk.text}</p></div>
              </div>
            </div>
          );
        }}
      </Async>
      <div class="proposal-actions">
        {canAct && <button type="button" class="btn btn-primary" disabled={busy} onClick={() => onAct('approve')} aria-describedby={headingId}>Approve</button>}
        {canAct && <button type="button" class="btn" disabled={busy} onClick={() => setRejecting(true)} aria-describedby={headingId}>Reject…</button>}
        <a class="btn btn-ghost" href={`/tasks/${task.id}`}>Details</a>
      </div>
      {rejecting && <RejectReason count={1} busy={busy} onReject={(reason) => onAct('cancel', reason)} onKeep={() => setRejecting(false)} />}
    </li>
  );
}
