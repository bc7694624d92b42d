import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scoreChangeNote } from '../../web/src/lib/score-change.ts';

describe('a health score that moved against its issue counts', () => {
  it('says why it rose with new issues and none fixed: a larger crawl, each check a smaller share', () => {
    const note = scoreChangeNote({ score: 79, previousScore: 66, newIssues: 35, fixedIssues: 0, pagesCrawled: 28 })!;
    assert.match(note, /^Up 13 points from 66 with nothing fixed: this audit analysed more pages \(28 pages\), so the same problems cover a smaller share of the site\./);
    assert.match(note, /weighs each problem by its severity and by how much of the site it affects, not by the number of issues\.$/);
  });

  it('names both causes when some were fixed, and the mirror case when it fell', () => {
    assert.match(scoreChangeNote({ score: 80, previousScore: 70, newIssues: 12, fixedIssues: 3, pagesCrawled: 40 })!, /^Up 10 points from 70 with more new issues than fixed: the 3 fixed issues weighed more than the 12 new/);
    assert.match(scoreChangeNote({ score: 60, previousScore: 70, newIssues: 0, fixedIssues: 4, pagesCrawled: 10 })!, /^Down 10 points from 70 with nothing new: this audit analysed fewer pages \(10 pages\)/);
    assert.match(scoreChangeNote({ score: 60, previousScore: 70, newIssues: 1, fixedIssues: 4, pagesCrawled: 10 })!, /^Down 10 points from 70 with more issues fixed than new: the 1 new issue weighed more than the 4 fixed/);
  });

  it('says nothing when the score and the counts agree, or there is nothing to compare', () => {
    assert.match(scoreChangeNote({ score: 67, previousScore: 66, newIssues: 2, fixedIssues: 0, pagesCrawled: 28 })!, /^Up 1 point from 66 /);
    assert.equal(scoreChangeNote({ score: 80, previousScore: 70, newIssues: 0, fixedIssues: 5, pagesCrawled: 28 }), undefined);
    assert.equal(scoreChangeNote({ score: 60, previousScore: 70, newIssues: 5, fixedIssues: 0, pagesCrawled: 28 }), undefined);
    assert.equal(scoreChangeNote({ score: 70, previousScore: 70, newIssues: 5, fixedIssues: 0, pagesCrawled: 28 }), undefined);
    assert.equal(scoreChangeNote({ score: 79, previousScore: undefined, newIssues: null, fixedIssues: null, pagesCrawled: 28 }), undefined);
  });
});
