import type { AuditsService } from '../audits/audits.service.ts';
import type { StoredPageContent } from '../crawler/main-content.ts';
import type { QueryPage } from './query-titles.ts';
import { siteSuffixesOf, suffixForPage, suffixIsSiteWide } from './writers.ts';
import { pageKey } from '../../lib/page-key.ts';

/** A page of the site's latest audit, as the search-data planner reads it. */
export interface SearchPage extends QueryPage {
  url: string;
  inlinks: number;
  /** Its first paragraph of main content ('' when the crawl kept none). */
  opening: string;
}

/**
 * The pages of a site's latest completed audit, for titles and links drafted from search
 * data: every page's title and inlinks at once, the text of the pages asked for (load).
 * Without a completed audit it knows no page.
 */
export async function createSearchPages(audits: Pick<AuditsService, 'latestCompleted' | 'pages' | 'pageContents'>, siteId: string) {
  const latest = await audits.latestCompleted(siteId);
  const rows = latest ? (await audits.pages(latest.id)).filter((p) => p.status === 200 && p.title) : [];
  const suffixes = siteSuffixesOf(rows.map((p) => p.title ?? ''));
  const siteWide = suffixIsSiteWide(rows.map((p) => p.title), suffixes);
  // Search Console and a crawl may write one page's address differently ("/guide" and "/guide/").
  const byKey = new Map(rows.map((p) => [pageKey(p.url), p]));
  const contents = new Map<string, StoredPageContent | null>();
  const page = (row: (typeof rows)[number]): SearchPage => {
    const content = contents.get(row.url) ?? null;
    const blocks = content?.blocks ?? [];
    return {
      url: row.url, inlinks: row.inlinks, title: row.title!, suffix: suffixForPage(row.title, suffixes, siteWide),
      h1: content?.headings.find((h) => h.level === 1)?.text ?? null,
      text: blocks.join('\n'), opening: blocks.find((b) => b.length >= 40) ?? blocks[0] ?? '',
    };
  };
  return {
    /** Reads the text the crawl kept of these pages (those the audit has). */
    async load(urls: readonly string[]) {
      if (!latest) return;
      const wanted = [...new Set(urls.flatMap((u) => byKey.get(pageKey(u))?.url ?? []))].filter((u) => !contents.has(u));
      for (let i = 0; i < wanted.length; i += 1000) {
        for (const row of await audits.pageContents(latest.id, wanted.slice(i, i + 1000))) contents.set(row.url, row.content as StoredPageContent | null);
      }
    },
    get(url: string): SearchPage | undefined {
      const row = byKey.get(pageKey(url));
      return row && page(row);
    },
    all: (): SearchPage[] => rows.map(page),
  };
}
