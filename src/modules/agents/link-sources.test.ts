import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLinkSources } from './link-sources.ts';
import type { SearchPage } from './search-pages.ts';

const page = (url: string, title: string, inlinks = 1): SearchPage => ({ url, title, h1: null, text: '', suffix: '', inlinks, opening: '' });

describe('pages to link from, for a query', () => {
  const pages = [
    page('/roses', 'Roses: a growing guide', 3), page('/tulips', 'Tulips: a growing guide', 9), page('/rose-care', 'Rose care: pruning', 5),
    page('/hedges', 'Hedges: a growing guide'), page('/ferns', 'Ferns: a growing guide'), page('/about', 'About the shop'),
  ];

  it('are those whose title says a topic word of the query, the most words then the most linked-to first, never the page itself', () => {
    assert.deepEqual(createLinkSources(pages).from('rose pruning', null, 3).map((p) => p.url), ['/rose-care', '/roses']);
    assert.deepEqual(createLinkSources(pages).from('rose pruning', '/rose-care', 3).map((p) => p.url), ['/roses']);
  });

  it('never for a word most titles say: a template\'s "growing guide" names no topic', () => {
    assert.deepEqual(createLinkSources(pages).from('growing guide', null, 3), []);
    assert.deepEqual(createLinkSources(pages).from('how to grow tulips', null, 3).map((p) => p.url), ['/tulips']);
  });
});
