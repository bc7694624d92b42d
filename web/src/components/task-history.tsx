import { api, unwrap } from '../api/client.ts';
import { formatDate } from '../lib/format.ts';
import { actorName } from './task-parts.tsx';
import { Badge, useAsync } from './ui.tsx';

type Entry = { from: string | null; to: string; actor: string; at: string; detail: unknown };

/** The step in words where the status alone says too little (approved, tried again, a brief handed over). */
function stepLabel(h: Entry, outcome: string) {
  if (h.to === 'completed' && outcome === 'brief') return 'brief ready';
  if (h.to === 'queued' && h.from === 'awaiting_approval') return 'approved';
  if (h.to === 'queued' && h.from === 'failed') return 'tried again';
  if (h.to === 'in_progress' && h.from === 'in_progress') return 'resumed';
  return undefined;
}

/** Why, where the history kept it: a failure's message, a rejection's reason. */
function stepNote(h: Entry) {
  const detail = h.detail as { message?: unknown; reason?: unknown } | null;
  if (!detail) return undefined;
  if (typeof detail.reason === 'string') return `Reason: ${detail.reason}`;
  if (typeof detail.message === 'string') return detail.message;
  return undefined;
}

/**
 * A task's whole history, each step with who took it (a member by name, so a shared workspace's history says which
 * member approved) and, for a failure or a rejection, why.
 */
export function TaskHistory({ history, outcome, workspaceId }: { history: Entry[]; outcome: string; workspaceId: string | undefined }) {
  const people = useAsync(async () => {
    if (!workspaceId) return {};
    const [me, members] = await Promise.all([
      api.GET('/api/v1/auth/me').then(unwrap),
      api.GET('/api/v1/workspaces/{workspace_id}/members', { params: { path: { workspace_id: workspaceId } } }).then(unwrap),
    ]);
    return Object.fromEntries(members.items.map((m) => [`user:${m.user_id}`, m.user_id === me.id ? 'you' : m.name]));
  }, [workspaceId]);
  // A member who has left since reads as "a former member"; before the names load, as the generic words.
  const who = (actor: string) => people.data?.[actor] ?? (actor.startsWith('user:') && people.data ? 'a former member' : actorName(actor));
  return (
    <ol class="timeline">
      {history.map((h) => {
        const note = stepNote(h);
        return (
          <li>
            <span class="timeline-dot" aria-hidden="true" />
            <div><Badge value={h.to} label={stepLabel(h, outcome)} /> <span class="muted small">by {who(h.actor)} · {formatDate(h.at, true)}</span></div>
            {note && <p class="small timeline-note">{note}</p>}
          </li>
        );
      })}
    </ol>
  );
}
