// What the Performance page's parts share: the report's types, settings and how its figures read.
import type { paths } from '../generated/api';
import { changeTone, formatChange, formatNumber } from './format.ts';
import { METRIC_NAMES } from './metric-names.ts';

export { DEFAULT_PERIOD, METRIC_NAMES } from './metric-names.ts';

export type ReportQuery = NonNullable<paths['/api/v1/analytics/performance']['get']['parameters']['query']>;
export type Report = paths['/api/v1/analytics/performance']['get']['responses'][200]['content']['application/json'];
export type Metrics = { clicks: number; impressions: number; ctr: number | null; position: number | null };
export type MetricKey = keyof Metrics;

/** Search Console's periods: days, then calendar months. */
export const PERIODS = [
  { value: '7d', label: '7 days' }, { value: '28d', label: '28 days' }, { value: '3m', label: '3 months' },
  { value: '6m', label: '6 months' }, { value: '12m', label: '12 months' }, { value: '16m', label: '16 months' },
] as const;
export const COMPARE = [{ value: 'previous', label: 'Previous period' }, { value: 'year', label: 'Same period last year' }, { value: 'none', label: 'No comparison' }] as const;
export const MATCHES = [{ value: 'contains', label: 'contains' }, { value: 'not_contains', label: 'does not contain' }, { value: 'equals', label: 'is exactly' }] as const;
export const SORTS = ['clicks', 'impressions', 'ctr', 'position', 'clicks_change', 'impressions_change', 'ctr_change', 'position_change'] as const;
export const FILTER_KEYS = ['query_contains', 'query_not_contains', 'query_equals', 'page_contains', 'page_not_contains', 'page_equals'] as const;

/** A difference in points or places, signed; "no earlier data" without one. */
export function signed(delta: number | null | undefined, unit: string, digits = 1) {
  if (delta === null || delta === undefined) return 'no earlier data';
  return `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${formatNumber(Math.abs(delta), { digits })}${unit}`;
}
export const tone = (key: MetricKey, delta: number | null | undefined) => changeTone(delta, key === 'position');

/** The four metrics as Search Console shows them: a count, a share, a place (lower is better). */
export const METRICS: Array<{ key: MetricKey; title: string; color: string; lowerIsBetter?: true; format: (v: number | null) => string }> = [
  { key: 'clicks', title: METRIC_NAMES.clicks, color: '#2557d6', format: (v) => formatNumber(v, { compact: true }) },
  { key: 'impressions', title: METRIC_NAMES.impressions, color: '#7c3aed', format: (v) => formatNumber(v, { compact: true }) },
  { key: 'ctr', title: METRIC_NAMES.ctr, color: '#047857', format: (v) => (v === null ? '—' : `${formatNumber(v * 100, { digits: 1 })}%`) },
  { key: 'position', title: METRIC_NAMES.position, color: '#b45309', lowerIsBetter: true, format: (v) => formatNumber(v, { digits: 1 }) },
];

/**
 * How a metric changed, as the table sorts it: counts by their difference, with the percent beside it ("+56 · +200%"),
 * CTR in points, position in places.
 */
export function changeText(key: MetricKey, now: Metrics, before: Metrics, change: Report['totals']['change']): string {
  if (key === 'clicks' || key === 'impressions') {
    const percent = change?.[key];
    return `${signed(now[key] - before[key], '', 0)}${percent === null || percent === undefined ? '' : ` · ${formatChange(percent)}`}`;
  }
  return signed(change?.[key], key === 'ctr' ? ' pts' : '');
}

// Countries and devices: Search Console reports them apart from queries and pages.
export type Segments = paths['/api/v1/analytics/performance/segments']['get']['responses'][200]['content']['application/json'];
export type SegmentDimension = Segments['dimension'];
export type Dimension = NonNullable<ReportQuery['dimension']> | SegmentDimension;
export type SegmentsQuery = NonNullable<paths['/api/v1/analytics/performance/segments']['get']['parameters']['query']>;
export const SEGMENT_DIMENSIONS: readonly SegmentDimension[] = ['country', 'device'];
export const isSegment = (dimension: string | undefined): dimension is SegmentDimension => dimension === 'country' || dimension === 'device';
/** The page's settings: the report's, a list of any of the four kinds, and at most one country or device the totals are narrowed to. */
export type PageQuery = Omit<ReportQuery, 'dimension'> & { dimension: Dimension; country?: string; device?: string };
/** Goes to the report with these settings changed. */
export type Go = (changes: Partial<Record<keyof PageQuery, string | number | undefined>>) => void;

/**
 * ISO 3166-1 alpha-3 (Search Console's country codes, lower case) to alpha-2 (what Intl.DisplayNames names), for the
 * 249 countries and territories of the standard and Kosovo (xkk). A pair is the alpha-3 code followed by the alpha-2.
 */
const ALPHA3 = new Map(('andad areae afgaf atgag aiaai albal armam agoao ataaq argar asmas autat ausau abwaw alaax azeaz bihba brbbb bgdbd belbe '
  + 'bfabf bgrbg bhrbh bdibi benbj blmbl bmubm brnbn bolbo besbq brabr bhsbs btnbt bvtbv bwabw blrby blzbz canca cckcc codcd cafcf cogcg chech '
  + 'civci cokck chlcl cmrcm chncn colco cricr cubcu cpvcv cuwcw cxrcx cypcy czecz deude djidj dnkdk dmadm domdo dzadz ecuec estee egyeg esheh '
  + 'erier espes ethet finfi fjifj flkfk fsmfm frofo frafr gabga gbrgb grdgd geoge gufgf ggygg ghagh gibgi grlgl gmbgm gingn glpgp gnqgq grcgr '
  + 'sgsgs gtmgt gumgu gnbgw guygy hkghk hmdhm hndhn hrvhr htiht hunhu idnid irlie isril imnim indin iotio irqiq irnir islis itait jeyje jamjm '
  + 'jorjo jpnjp kenke kgzkg khmkh kirki comkm knakn prkkp korkr kwtkw cymky kazkz laola lbnlb lcalc lieli lkalk lbrlr lsols ltult luxlu lvalv '
  + 'lbyly marma mcomc mdamd mneme mafmf mdgmg mhlmh mkdmk mliml mmrmm mngmn macmo mnpmp mtqmq mrtmr msrms mltmt musmu mdvmv mwimw mexmx mysmy '
  + 'mozmz namna nclnc nerne nfknf ngang nicni nldnl norno nplnp nrunr niunu nzlnz omnom panpa perpe pyfpf pngpg phlph pakpk polpl spmpm pcnpn '
  + 'pripr pseps prtpt plwpw prypy qatqa reure rouro srbrs rusru rwarw sausa slbsb sycsc sdnsd swese sgpsg shnsh svnsi sjmsj svksk slesl smrsm '
  + 'sensn somso sursr ssdss stpst slvsv sxmsx syrsy swzsz tcatc tcdtd atftf tgotg thath tjktj tkltk tlstl tkmtm tuntn tonto turtr ttott tuvtv '
  + 'twntw tzatz ukrua ugaug umium usaus uryuy uzbuz vatva vctvc venve vgbvg virvi vnmvn vutvu wlfwf wsmws yemye mytyt zafza zmbzm zwezw xkkxk')
  .split(' ').map((pair) => [pair.slice(0, 3), pair.slice(3).toUpperCase()] as const));
const regions = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : undefined;

/** A country's English name ("prt" -> "Portugal"; a code not in the table upper-cased: "zzz" -> "ZZZ"); a device capitalised. */
export function segmentName(dimension: SegmentDimension, key: string): string {
  if (dimension === 'device') return key.charAt(0).toUpperCase() + key.slice(1);
  const alpha2 = ALPHA3.get(key.toLowerCase());
  const name = alpha2 ? regions?.of(alpha2) : undefined;
  return name && name !== alpha2 ? name : key.toUpperCase();
}
export const SEGMENT_NOUN: Record<SegmentDimension, { one: string; many: string; title: string }> = {
  country: { one: 'country', many: 'countries', title: 'Country' },
  device: { one: 'device', many: 'devices', title: 'Device' },
};
