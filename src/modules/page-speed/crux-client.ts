import { Agent, interceptors, request, type Dispatcher } from 'undici';
import type { Config } from '../../config.ts';
import { rateVital, type VitalId, type VitalRating } from './vitals.ts';

/**
 * Chrome UX Report field data (real Chrome users, 28 days, 75th percentile) through the
 * CrUX API's records:queryRecord with plain HTTP, not the googleapis package, for the reasons
 * google-client.ts gives: one endpoint, a configurable base URL so tests stand in for Google.
 * The API key goes in the X-Goog-Api-Key header, never in the URL, so it stays out of access
 * logs and error messages. 429 and 5xx are retried by undici's retry interceptor, which
 * honours Retry-After.
 */
export type CruxConfig = NonNullable<Config['crux']>;

/** CrUX's metric names for the vitals it measures in the field (it has no TBT: that is lab only). */
export const CRUX_METRICS = {
  largest_contentful_paint: 'lcp',
  interaction_to_next_paint: 'inp',
  cumulative_layout_shift: 'cls',
  first_contentful_paint: 'fcp',
  experimental_time_to_first_byte: 'ttfb',
} as const satisfies Record<string, VitalId>;
type CruxMetricName = keyof typeof CRUX_METRICS;

/** PHONE because Google's mobile-first indexing judges a site as phones see it. */
const FORM_FACTOR = 'PHONE';

export interface FieldMetric { id: VitalId; p75: number; rating: VitalRating; good_share: number }
export interface FieldData {
  scope: 'origin' | 'url';
  /** The origin, or the URL as Google normalised it (fragment and tracking parameters removed). */
  key: string;
  form_factor: typeof FORM_FACTOR;
  period: { first: string; last: string };
  /** Only the vitals Google has enough data for. */
  metrics: FieldMetric[];
}

export class CruxApiError extends Error {
  /** The HTTP status, 0 when Google could not be reached or did not answer in time. */
  readonly status: number;
  /** Google's error.status, e.g. INVALID_ARGUMENT, PERMISSION_DENIED, RESOURCE_EXHAUSTED. */
  readonly googleStatus: string | undefined;
  /** The ErrorInfo reason in error.details, e.g. API_KEY_INVALID. */
  readonly reason: string | undefined;
  constructor(message: string, status: number, googleStatus?: string, reason?: string) {
    super(message);
    this.name = 'CruxApiError';
    this.status = status;
    this.googleStatus = googleStatus;
    this.reason = reason;
  }
  /** The key is wrong, missing, restricted or its project lacks the API: an operator must fix CRUX_API_KEY. */
  get keyRejected() {
    return this.status === 401 || this.status === 403 || (this.status === 400 && (this.reason ?? '').startsWith('API_KEY_'));
  }
  /** A quota that retries did not outlast. */
  get quota() {
    return this.status === 429 || this.googleStatus === 'RESOURCE_EXHAUSTED';
  }
}

interface GoogleDate { year: number; month: number; day: number }
interface CruxResponse {
  record: {
    key: { origin?: string; url?: string; formFactor?: string };
    metrics?: Partial<Record<string, { histogram?: Array<{ start: number | string; end?: number | string; density?: number }>; percentiles?: { p75?: number | string } }>>;
    collectionPeriod: { firstDate: GoogleDate; lastDate: GoogleDate };
  };
  urlNormalizationDetails?: { originalUrl: string; normalizedUrl: string };
}

const isoDate = (d: GoogleDate) => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

export function parseCruxResponse(body: CruxResponse): FieldData {
  const { key, metrics = {}, collectionPeriod } = body.record;
  const fieldMetrics: FieldMetric[] = [];
  for (const [name, id] of Object.entries(CRUX_METRICS) as Array<[CruxMetricName, VitalId]>) {
    const metric = metrics[name];
    // CLS's p75 (and its bin bounds) come as strings such as "0.05"; the others as numbers.
    const p75 = Number(metric?.percentiles?.p75);
    if (!metric || metric.percentiles?.p75 === undefined || !Number.isFinite(p75)) continue;
    // The first bin is the "good" range; proto3 JSON may leave a zero density out.
    fieldMetrics.push({ id, p75, rating: rateVital(id, p75), good_share: metric.histogram?.[0]?.density ?? 0 });
  }
  return {
    scope: key.url !== undefined ? 'url' : 'origin',
    key: key.url ?? body.urlNormalizationDetails?.normalizedUrl ?? key.origin ?? '',
    form_factor: FORM_FACTOR,
    period: { first: isoDate(collectionPeriod.firstDate), last: isoDate(collectionPeriod.lastDate) },
    metrics: fieldMetrics,
  };
}

export function createCruxClient(config: CruxConfig, options: { retryMinMs?: number; timeoutMs?: number } = {}) {
  const dispatcher: Dispatcher = new Agent({ connections: 8, connectTimeout: 10_000, headersTimeout: 20_000, bodyTimeout: 20_000 }).compose(
    interceptors.retry({
      maxRetries: 3, minTimeout: options.retryMinMs ?? 1000, maxTimeout: 20_000, throwOnError: false,
      methods: ['POST'], statusCodes: [429, 500, 502, 503, 504],
    }),
  );
  // One query, retries and their waits included, never takes longer than this.
  const timeoutMs = options.timeoutMs ?? 60_000;

  /** The field data of an origin ("https://example.com") or a page; null when Google has too little traffic for it. */
  async function query(target: { origin: string } | { url: string }): Promise<FieldData | null> {
    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      response = await request(`${config.url}/records:queryRecord`, {
        method: 'POST',
        dispatcher,
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json', 'content-type': 'application/json', 'x-goog-api-key': config.apiKey },
        body: JSON.stringify({ ...target, formFactor: FORM_FACTOR, metrics: Object.keys(CRUX_METRICS) }),
      });
      text = await response.body.text();
    } catch (error) {
      throw new CruxApiError(`The CrUX API could not be reached: ${(error as Error).message}`, 0);
    }
    let body: any;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      throw new CruxApiError(`The CrUX API answered ${response.statusCode} with a body that is not JSON`, response.statusCode);
    }
    // "chrome ux report data not found": too few Chrome users for this key, a normal answer.
    if (response.statusCode === 404 && body.error?.status === 'NOT_FOUND') return null;
    if (response.statusCode >= 400 || !body.record) {
      const error = body.error ?? {};
      const reason = (error.details as Array<{ reason?: string }> | undefined)?.find((d) => d.reason)?.reason;
      throw new CruxApiError(`The CrUX API answered ${response.statusCode}: ${error.message ?? 'no record'}`, response.statusCode, error.status, reason);
    }
    return parseCruxResponse(body as CruxResponse);
  }

  return { query, close: () => dispatcher.close() };
}

export type CruxClient = ReturnType<typeof createCruxClient>;

/** How much of an audit's CrUX quota (150 queries a minute per project) one audit may spend, and how fast. */
export const FIELD_DATA_LIMITS = { maxUrls: 20, concurrency: 4 };

export interface SiteFieldData {
  origin: FieldData | null;
  /** The pages queried before any failure; a page Google lacks data for maps to null. */
  pages: Map<string, FieldData | null>;
  /** Why field data is missing or partial (a rejected key, a quota): said once, the audit goes on. */
  error?: string;
}

/**
 * The origin's field data and up to FIELD_DATA_LIMITS.maxUrls pages', a few at a time. Never
 * throws: the first failure stops further queries (a bad key or an exhausted quota would fail
 * them all) and is reported in `error`.
 */
export async function fieldDataFor(client: Pick<CruxClient, 'query'>, origin: string, urls: string[]): Promise<SiteFieldData> {
  const result: SiteFieldData = { origin: null, pages: new Map() };
  const attempt = async (run: () => Promise<FieldData | null>) => {
    if (result.error !== undefined) return { ok: false as const };
    try {
      return { ok: true as const, data: await run() };
    } catch (error) {
      result.error ??= (error as Error).message;
      return { ok: false as const };
    }
  };

  const originData = await attempt(() => client.query({ origin: new URL(origin).origin }));
  if (!originData.ok) return result;
  result.origin = originData.data;

  const queue = [...new Set(urls)].slice(0, FIELD_DATA_LIMITS.maxUrls);
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined && result.error === undefined; url = queue.shift()) {
      const page = await attempt(() => client.query({ url: url! }));
      if (page.ok) result.pages.set(url, page.data);
    }
  };
  await Promise.all(Array.from({ length: FIELD_DATA_LIMITS.concurrency }, worker));
  return result;
}
