import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cycles, folderGraph } from './import-graph.ts';

describe('the import graph', () => {
  it('has no cycles between module folders', () => {
    const found = cycles(folderGraph(path.resolve(import.meta.dirname, '..')));
    assert.deepEqual(found.map((c) => c.join(' -> ')), []);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([['modules/a', new Set(['modules/b'])], ['modules/b', new Set(['lib', 'modules/a'])]]);
    assert.deepEqual(cycles(graph), [['modules/a', 'modules/b', 'modules/a']]);
  });
});
