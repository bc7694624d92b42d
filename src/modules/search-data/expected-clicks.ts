import type { CtrCurve } from './ctr-curve.ts';

/**
 * What a proposal is worth: the additional clicks from search it can bring in 28 days, with
 * a range (what a cautious and a hopeful reading of the same data give). The method is the
 * README's "Expected clicks"; each estimator below says its assumptions.
 */
export interface ExpectedClicks {
  clicks: number;
  low: number;
  high: number;
  /** What the estimate rests on: the site's own CTR curve, the published one, or the clicks of the pages a fix affects. */
  basis: 'site_curve' | 'industry_curve' | 'page_clicks';
  /** The estimate in words, with its inputs. */
  method: string;
}

/** A query's or page's search figures over 28 days. */
export interface SearchFigures {
  impressions: number;
  clicks: number;
  position: number;
}

export interface Curve {
  curve: CtrCurve;
  basis: 'site' | 'industry';
}

/**
 * The share of a query's searches in which a result at a position is seen at all: searchers
 * rarely open page two, fewer still each page after, so Search Console counts an impression
 * there only for those who did: 10% on page two, falling with the square of the position
 * beyond (4.4% at 30, 2% at 45). A position is an average over days and searches: between
 * 10 and 12 the share falls gradually (geometrically, 1 to 0.1), so that 10.4 is not worth twenty times 10.0. The keywords' estimated volume uses the same factors
 * (search-data.repo.ts refreshKeywords).
 */
export const visibility = (position: number) =>
  position <= 10 ? 1 : position < 12 ? 10 ** (-(position - 10) / 2) : position <= 20 ? 0.1 : 0.1 * (20 / position) ** 2;

/** Positions a change to the page's own signals (title, h1, opening) plausibly reaches: 15%, 35% and 55% of the way up. */
export const REACH = { low: 0.85, mid: 0.65, high: 0.45 } as const;

/** A new page written for a query the site is barely seen for: where it may rank after some months (page two, the foot of page one, its middle). */
export const NEW_PAGE_REACH = { low: 15, mid: 10, high: 7 } as const;

/** A refreshed page wins back this share of the clicks it lost. */
export const RECOVERY = { low: 0.25, mid: 0.5, high: 0.8 } as const;

/** A rewritten title and description bring a page's CTR this share of the way to what is usual at its position. */
export const CTR_TARGET = { low: 0.5, mid: 0.75, high: 1 } as const;

const round = (n: number) => Math.max(0, Math.round(n));
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const place = (p: number) => p.toFixed(1);
const basisOf = (c: Curve) => (c.basis === 'site' ? 'site_curve' as const : 'industry_curve' as const);
const curveInWords = (c: Curve) => (c.basis === 'site' ? "this site's CTR curve" : 'the published CTR curve (Sistrix 2020)');

function estimate(values: { low: number; mid: number; high: number }, basis: ExpectedClicks['basis'], method: string): ExpectedClicks {
  const [low, clicks, high] = [values.low, values.mid, values.high].map(round).sort((a, b) => a - b) as [number, number, number];
  return { clicks, low, high, basis, method };
}

/** ", about 1,300 searches in all": the searches a result on page one would be seen in, when the estimate counts them. */
function searchesInWords(figures: SearchFigures, reached: number): string {
  const ratio = visibility(reached) / visibility(figures.position);
  return ratio <= 1 ? '' : ` (about ${Math.round(figures.impressions * ratio).toLocaleString('en')} searches, counting those who never look past page one)`;
}

/** Clicks a query or page would have at another position: its searches seen there, times the CTR there. */
function clicksAt(figures: SearchFigures, position: number, c: Curve) {
  return figures.impressions * (visibility(position) / visibility(figures.position)) * c.curve(position);
}

/**
 * A change that moves a query up (its words in the page's title and h1, links with it as
 * anchor text): the gain in clicks between where it ranks and where it plausibly gets to,
 * on the curve, counting the searchers who see page one but not page two.
 */
export function fromMovingUp(figures: SearchFigures, c: Curve): ExpectedClicks {
  const at = (share: number) => Math.max(1, figures.position * share);
  const gain = (share: number) => clicksAt(figures, at(share), c) - clicksAt(figures, figures.position, c);
  return estimate(
    { low: gain(REACH.low), mid: gain(REACH.mid), high: gain(REACH.high) }, basisOf(c),
    `${figures.impressions} impressions at position ${place(figures.position)}${searchesInWords(figures, at(REACH.high))}; moving to ${place(at(REACH.mid))} (${place(at(REACH.low))} to ${place(at(REACH.high))}) on ${curveInWords(c)}`,
  );
}

/** A title and description rewritten for a page searchers skip: its CTR brought towards what is usual at its position. */
export function fromBetterSnippet(figures: SearchFigures, c: Curve): ExpectedClicks {
  const usual = c.curve(figures.position);
  const gain = (share: number) => figures.impressions * share * usual - figures.clicks;
  return estimate(
    { low: gain(CTR_TARGET.low), mid: gain(CTR_TARGET.mid), high: gain(CTR_TARGET.high) }, basisOf(c),
    `${figures.impressions} impressions at position ${place(figures.position)} with ${pct(figures.clicks / Math.max(1, figures.impressions))} clicking; ${pct(usual)} is usual there on ${curveInWords(c)}, and the rewrite is taken to reach half to all of it`,
  );
}

/** A page written for a query the site is seen for only far down: the clicks of ranking where a new page plausibly gets. */
export function fromNewPage(figures: SearchFigures, c: Curve): ExpectedClicks {
  const gain = (position: number) => clicksAt(figures, Math.min(position, figures.position), c) - figures.clicks;
  return estimate(
    { low: gain(NEW_PAGE_REACH.low), mid: gain(NEW_PAGE_REACH.mid), high: gain(NEW_PAGE_REACH.high) }, basisOf(c),
    `${figures.impressions} impressions at position ${place(figures.position)}${searchesInWords(figures, NEW_PAGE_REACH.high)}; a page written for it ranking at ${NEW_PAGE_REACH.mid} (${NEW_PAGE_REACH.low} to ${NEW_PAGE_REACH.high}) on ${curveInWords(c)}`,
  );
}

/** A refreshed page: part of the clicks it lost against the 28 days before. */
export function fromRecovery(clicks: number, previousClicks: number): ExpectedClicks {
  const lost = Math.max(0, previousClicks - clicks);
  return estimate(
    { low: lost * RECOVERY.low, mid: lost * RECOVERY.mid, high: lost * RECOVERY.high }, 'page_clicks',
    `${lost} clicks lost against the 28 days before; a refresh is taken to win back half (a quarter to four fifths)`,
  );
}

/**
 * A fix that changes how a page is shown or understood, not where it ranks (named data: each
 * type's share of its pages' present clicks, cautious to hopeful, and why). Types not listed
 * here are not expected to move clicks on their own.
 */
export const FIX_UPLIFT: Record<string, { low: number; mid: number; high: number; why: string }> = {
  fix_missing_meta_description: { low: 0, mid: 0.03, high: 0.08, why: 'a written description replaces the snippet Google picks from the page' },
  fix_duplicate_meta_description: { low: 0, mid: 0.03, high: 0.08, why: 'a description of its own tells the page apart from its twins in results' },
  fix_title_tag: { low: 0, mid: 0.05, high: 0.12, why: 'a title that fits and says what the page is, in results' },
  fix_h1: { low: 0, mid: 0.01, high: 0.03, why: 'one clear headline helps the page be understood' },
  add_image_alt_text: { low: 0, mid: 0.01, high: 0.03, why: 'images described are found in image search' },
  add_internal_links: { low: 0, mid: 0.05, high: 0.15, why: 'links from related pages help a page rank' },
  fix_broken_links: { low: 0, mid: 0.01, high: 0.03, why: 'readers and crawlers no longer end at a dead page' },
  fix_redirect_chains: { low: 0, mid: 0.01, high: 0.02, why: 'links reach the page in one step' },
  add_hreflang: { low: 0, mid: 0.02, high: 0.06, why: 'searchers get the page in their language' },
  fix_html_lang: { low: 0, mid: 0.01, high: 0.03, why: 'the page is shown to searchers of its language' },
  add_structured_data: { low: 0, mid: 0.05, high: 0.15, why: 'a rich result draws more clicks than a plain one' },
  expand_thin_content: { low: 0, mid: 0.1, high: 0.3, why: 'a page that answers its query fully ranks for more of it' },
  fix_canonical: { low: 0, mid: 0.03, high: 0.1, why: 'search signals gather on the page meant to rank' },
};

/**
 * A fix on pages with search data: the listed share of those pages' clicks in 28 days.
 * Undefined for a type whose worth its pages' clicks cannot say (a page out of the index has
 * none: lifting a noindex or a robots.txt block is worth what the page would earn indexed).
 */
export function fromPageClicks(type: string, pages: ReadonlyArray<{ clicks: number }>): ExpectedClicks | undefined {
  const uplift = FIX_UPLIFT[type];
  if (!uplift) return undefined;
  const clicks = pages.reduce((sum, p) => sum + p.clicks, 0);
  const pagesWord = pages.length === 1 ? 'its page' : `its ${pages.length} pages`;
  const method = clicks === 0
    ? `${pagesWord} had no clicks from search in 28 days: nothing to estimate from`
    : `${clicks} clicks in 28 days on ${pagesWord}; ${uplift.why}: taken as ${pct(uplift.mid)} more (${pct(uplift.low)} to ${pct(uplift.high)})`;
  return estimate({ low: clicks * uplift.low, mid: clicks * uplift.mid, high: clicks * uplift.high }, 'page_clicks', method);
}

/** The card's words: "about +120 clicks / 28 days, 60-200". */
export function inWords(e: ExpectedClicks): string {
  return e.high === 0 ? 'no clicks expected from search' : `about +${e.clicks} clicks / 28 days, ${e.low}-${e.high}`;
}
