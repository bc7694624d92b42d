import { contentPlanner } from './content.ts';
import { headingsAndImagesPlanner } from './headings-images.ts';
import { indexingPlanner } from './indexing.ts';
import { internationalPlanner } from './international.ts';
import { linksPlanner } from './links.ts';
import { metaPlanner } from './meta.ts';
import { renderingPlanner } from './rendering.ts';
import { pageSpeedPlanner } from './page-speed.ts';
import type { Planner } from './planner.ts';

/** In order of what matters most when the per-run read budget runs out: indexing first. */
export const PLANNERS: readonly Planner[] = [indexingPlanner, metaPlanner, linksPlanner, headingsAndImagesPlanner, contentPlanner, internationalPlanner, renderingPlanner, pageSpeedPlanner];

/** Findings of these checks lead planners to the page's text (kept by the crawl, else downloaded again). */
export const DRAFTED_FROM_PAGE = new Set([
  'meta_description_missing', 'meta_description_empty', 'meta_description_duplicate', 'title_missing', 'title_empty', 'title_too_short',
  'title_too_long', 'title_duplicate', 'h1_missing', 'image_missing_alt', 'thin_content', 'broken_internal_links', 'links_to_redirect',
  // The language a page's text is written in: an undeclared one, an untranslated copy among language versions.
  'html_lang_missing', 'hreflang_missing',
]);

/** Page-level findings whose tasks take their priority from the page's weight in the site (proposal.ts prioritiesByWeight). */
export const PAGE_LEVEL = new Set([
  'meta_description_missing', 'meta_description_empty', 'meta_description_duplicate', 'title_missing', 'title_empty', 'title_too_short',
  'title_too_long', 'title_duplicate', 'h1_missing', 'h1_multiple', 'image_missing_alt', 'thin_content',
]);
