import { diffWords, sides, type Change } from '../lib/diff.ts';

/** Before -> after of one change, with removed words struck and added words marked. */
export function DiffView({ change }: { change: Change }) {
  const { before, after } = sides(diffWords(change.before, change.after));
  return (
    <div class="diff">
      <div class="diff-label">{change.label}</div>
      <div class="diff-grid">
        <div class="diff-side diff-before">
          <span class="diff-tag">Before</span>
          <p>{change.before === null || change.before === '' ? <em class="muted">(none)</em> : before.map((p) => (p.kind === 'removed' ? <del>{p.text}</del> : p.text))}</p>
        </div>
        <div class="diff-side diff-after">
          <span class="diff-tag">After</span>
          <p>{change.after === null || change.after === '' ? <em class="muted">(removed)</em> : after.map((p) => (p.kind === 'added' ? <ins>{p.text}</ins> : p.text))}</p>
          {change.source ? <span class="diff-source muted">In the words of {change.source}</span> : null}
        </div>
      </div>
    </div>
  );
}
