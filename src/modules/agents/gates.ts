import { DESCRIPTION_MAX, DESCRIPTION_MIN, TITLE_MAX, TITLE_MIN } from '../checks/page-checks.ts';
import type { Proposal } from './proposal.ts';

const isText = (value: unknown, min: number, max: number) => typeof value === 'string' && value.length >= min && value.length <= max;
const nonEmptyList = (value: unknown) => Array.isArray(value) && value.length > 0;

/**
 * The quality gates every proposal passes before it becomes a task: evidence, a proposed
 * value that passes the very check that flagged the problem, and a defined change or
 * deliverable. (Freshness is checked per run; duplicates by the open-task index; the
 * uniqueness of drafted values by the writers, against every value on the site.)
 */
export function gateFailure(proposal: Proposal): string | undefined {
  if (proposal.evidence.length === 0) return 'no evidence';
  const config = proposal.configuration;
  switch (proposal.type) {
    case 'fix_missing_meta_description':
    case 'fix_duplicate_meta_description':
      return isText(config.after, DESCRIPTION_MIN, DESCRIPTION_MAX) ? undefined : 'the drafted description is outside 80-160 characters';
    case 'fix_title_tag':
      return isText(config.after, TITLE_MIN, TITLE_MAX) ? undefined : 'the drafted title is outside 20-60 characters';
    case 'fix_h1':
      return config.issue === 'multiple' || isText(config.after, 1, 200) ? undefined : 'no h1 text drafted';
    case 'add_image_alt_text':
      return nonEmptyList(config.images) && (config.images as Array<{ alt?: unknown }>).every((i) => isText(i.alt, 1, 125))
        ? undefined : 'no alt text of 1-125 characters drafted';
    case 'fix_broken_links':
    case 'fix_redirect_chains':
    case 'fix_sitemap_errors':
      return nonEmptyList(config.changes) ? undefined : 'no change defined';
    case 'fix_canonical':
      return typeof config.after === 'string' && /^https?:\/\//.test(config.after) ? undefined : 'no absolute canonical URL defined';
    case 'add_structured_data':
      if (config.issue === 'invalid') return typeof config.instructions === 'string' ? undefined : 'no deliverable defined';
      return typeof config.json_ld === 'object' && config.json_ld !== null ? undefined : 'no JSON-LD defined';
    case 'add_internal_links':
      return nonEmptyList(config.sources) && typeof config.anchor_text === 'string' ? undefined : 'no linking page or anchor text found';
    case 'fix_indexing_block':
    case 'expand_thin_content':
    case 'optimize_title_tag':
    case 'prioritize_quick_wins':
    case 'create_content_for_keyword':
    case 'refresh_declining_content':
    case 'consolidate_cannibalized_pages':
      return typeof config.instructions === 'string' ? undefined : 'no deliverable defined';
    default:
      return 'unknown task type';
  }
}
