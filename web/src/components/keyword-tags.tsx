import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import { DialogHead, KeywordDialog } from './keyword-dialog.tsx';
import { describedBy, ErrorNotice, Field } from './ui.tsx';
import { fieldErrors } from '../lib/format.ts';

/** As the API takes them: 1-40 letters, digits, spaces and . _ / & + -, starting and ending with a letter or digit. */
const TAG = /^[\p{L}\p{N}](?:[\p{L}\p{N} ._/&+-]*[\p{L}\p{N}])?$/u;
const MAX_TAGS = 20;

/** A keyword's tags, as small chips (nothing when it has none). */
export function TagChips({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul class="kw-tags" aria-label="Tags">
      {tags.map((t) => <li class="kw-tag">{t}</li>)}
    </ul>
  );
}

/**
 * Edits one keyword's tags in a dialog: typed and added with Enter (or Add), removed with their × button, saved together
 * (PATCH, editor and up). The site's other tags are offered as the input's suggestions.
 */
export function TagEditor({ keyword, suggestions, onSaved, onClose }: {
  keyword: { id: string; keyword: string; tags: string[] };
  suggestions: string[];
  onSaved: (tags: string[]) => void;
  onClose: () => void;
}) {
  const [tags, setTags] = useState(keyword.tags);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [other, setOther] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  /** The tags with the draft added, or undefined (and the reason shown) when it cannot be. */
  const withDraft = (): string[] | undefined => {
    const tag = draft.trim().replace(/\s+/g, ' ');
    if (!tag) return tags;
    if (tag.length > 40) return void setError('Use at most 40 characters.');
    if (!TAG.test(tag)) return void setError('Use letters, digits, spaces and . _ / & + - only, starting and ending with a letter or digit.');
    if (tags.some((t) => t.toLowerCase() === tag.toLowerCase())) return void setError(`“${keyword.keyword}” has this tag already.`);
    if (tags.length >= MAX_TAGS) return void setError(`A keyword has at most ${MAX_TAGS} tags.`);
    return [...tags, tag];
  };
  const add = () => {
    setError(undefined);
    const next = withDraft();
    if (!next) return;
    setTags(next);
    setDraft('');
  };
  const save = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setError(undefined);
    setOther(undefined);
    const next = withDraft();
    if (!next) return;
    setTags(next);
    setDraft('');
    setBusy(true);
    try {
      const saved = unwrap(await api.PATCH('/api/v1/keywords/{keyword_id}', { params: { path: { keyword_id: keyword.id } }, body: { tags: next } }));
      onSaved(saved.tags);
    } catch (e) {
      const fields = fieldErrors((e as ApiError).problem?.errors);
      if (fields.tags) setError(fields.tags);
      else setOther(e);
    } finally {
      setBusy(false);
    }
  };
  const offered = suggestions.filter((s) => !tags.some((t) => t.toLowerCase() === s.toLowerCase()));
  const headingId = `tags-title-${keyword.id}`;
  return (
    <KeywordDialog labelledBy={headingId} onClose={onClose}>
      <DialogHead id={headingId} title={<>Tags of “{keyword.keyword}”</>} onClose={onClose} />
      <form onSubmit={save}>
        {tags.length === 0
          ? <p class="muted small">No tags yet. Tags group keywords (a product, a campaign) so the list can be filtered by them.</p>
          : (
            <ul class="kw-tags kw-tags-edit" aria-label="Its tags">
              {tags.map((t) => (
                <li class="kw-tag">
                  {t}
                  <button type="button" class="kw-tag-remove" aria-label={`Remove tag ${t}`} onClick={() => setTags(tags.filter((x) => x !== t))}>×</button>
                </li>
              ))}
            </ul>
          )}
        <Field id="new-tag" label="Add a tag" error={error} hint="Type a tag and press Enter.">
          <div class="input-with-button">
            <input
              id="new-tag" value={draft} maxLength={40} autoFocus list="tag-suggestions" autocomplete="off"
              onInput={(e) => { setDraft(e.currentTarget.value); setError(undefined); }}
              onKeyDown={(e) => { if (e.key === 'Enter' && draft.trim()) { e.preventDefault(); add(); } }}
              {...describedBy('new-tag', error, true)}
            />
            <button type="button" class="btn" onClick={add}>Add</button>
          </div>
        </Field>
        <datalist id="tag-suggestions">{offered.map((s) => <option value={s} />)}</datalist>
        {other !== undefined && <ErrorNotice error={other} />}
        <div class="form-actions">
          <button type="submit" class="btn btn-primary" aria-disabled={busy || undefined}>{busy ? 'Saving…' : 'Save tags'}</button>
          <button type="button" class="btn" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </KeywordDialog>
  );
}
