/**
 * The article-extraction benchmark's metric (../shared/benchmarks/article-extraction/evaluate.py)
 * in TypeScript: 4-token shingles of the predicted article body against the true one, each
 * page's true / false positives and false negatives normalised to sum 1, precision and
 * recall averaged over pages, F1 from those averages. bench/extraction/run.ts checks that it
 * agrees with `python3 evaluate.py` on the same predictions.
 */

/** Python's `re.findall(r'\w+', text)`: letters, digits (any script) and the underscore. */
const tokenize = (text: string) => text.match(/[\p{L}\p{N}_]+/gu) ?? [];

function shingles(text: string, n = 4): Map<string, number> {
  const tokens = tokenize(text);
  const counts = new Map<string, number>();
  for (let i = 0; i < Math.max(1, tokens.length - n + 1); i++) {
    const shingle = tokens.slice(i, i + n);
    if (shingle.length === 0) continue;
    const key = shingle.join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export type TpFpFn = [number, number, number];

/** One page: its shingles' true positives, false positives and false negatives, normalised to sum 1. */
export function shingleMatching(truth: string, predicted: string): TpFpFn {
  const [a, b] = [shingles(truth), shingles(predicted)];
  let tp = 0, fp = 0, fn = 0;
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const [t, p] = [a.get(key) ?? 0, b.get(key) ?? 0];
    tp += Math.min(t, p);
    fp += Math.max(0, p - t);
    fn += Math.max(0, t - p);
  }
  const sum = tp + fp + fn;
  return sum > 0 ? [tp / sum, fp / sum, fn / sum] : [tp, fp, fn];
}

const precisionOf = ([tp, fp, fn]: TpFpFn) => (fp === 0 && fn === 0 ? 1 : tp === 0 && fp === 0 ? 0 : tp / (tp + fp));
const recallOf = ([tp, fp, fn]: TpFpFn) => (fp === 0 && fn === 0 ? 1 : tp === 0 && fn === 0 ? 0 : tp / (tp + fn));
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** The set's precision, recall and F1, as evaluate.py's metrics_from_tp_fp_fns computes them. */
export function scoreOf(pages: readonly TpFpFn[]) {
  const precision = mean(pages.filter(([tp, fp]) => tp + fp > 0).map(precisionOf));
  const recall = mean(pages.filter(([tp, , fn]) => tp + fn > 0).map(recallOf));
  return { f1: (2 * precision * recall) / (precision + recall), precision, recall };
}
