import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, it } from 'node:test';
import { readPageContent } from '../src/modules/agents/page-content.ts';
import { WHOLE_PAGE } from '../src/modules/crawler/main-content.ts';
import { scoreOf, shingleMatching } from '../bench/extraction/shingles.ts';

/** The shared article-extraction benchmark (181 real pages with their hand-made article bodies), beside the repository. */
const ROOT = path.resolve(import.meta.dirname, '../../shared/benchmarks/article-extraction');
/** Where the score stands (npm run bench:extraction, BENCHMARKS.md): a change that loses main content fails here. Target 0.96. */
const FLOOR = { f1: 0.9708, precision: 0.9679, recall: 0.9736 };

describe('main content on the article-extraction benchmark', () => {
  it(`keeps F1 >= ${FLOOR.f1} with each page read alone`, { skip: !fs.existsSync(ROOT) && `${ROOT} is not on this machine` }, () => {
    const truth = JSON.parse(fs.readFileSync(path.join(ROOT, 'ground-truth.json'), 'utf8')) as Record<string, { url: string; articleBody: string }>;
    const pages = Object.entries(truth).map(([id, page]) => {
      const html = zlib.gunzipSync(fs.readFileSync(path.join(ROOT, 'html', `${id}.html.gz`))).toString('utf8');
      return shingleMatching(page.articleBody, readPageContent(html, page.url, WHOLE_PAGE).paragraphs.join('\n'));
    });
    const score = scoreOf(pages);
    assert.equal(pages.length, 181);
    assert.ok(score.f1 >= FLOOR.f1 && score.precision >= FLOOR.precision && score.recall >= FLOOR.recall,
      `F1 ${score.f1.toFixed(4)}, precision ${score.precision.toFixed(4)}, recall ${score.recall.toFixed(4)}`);
  });

  it('scores as the benchmark does: a perfect page, an empty one, and half a page', () => {
    const text = 'one two three four five six seven eight';
    assert.deepEqual(shingleMatching(text, text), [1, 0, 0]);
    assert.deepEqual(shingleMatching(text, ''), [0, 0, 1]);
    const [tp, fp, fn] = shingleMatching(text, 'one two three four five');
    assert.ok(tp > 0 && fp === 0 && fn > 0);
    assert.deepEqual(scoreOf([[1, 0, 0], [0, 0, 1]]), { f1: 2 / 3, precision: 1, recall: 0.5 });
  });
});
