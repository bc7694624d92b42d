import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Chrome UX Report API's records:queryRecord, in its wire format:
 * the key in X-Goog-Api-Key or ?key= (Google takes both), one record per origin or URL with
 * the requested metrics only, CLS's p75 and bin bounds as strings, densities per bin, the
 * 28-day collectionPeriod as {year, month, day}, urlNormalizationDetails when the URL asked
 * for was normalised (here: its query and fragment dropped), and Google's error bodies.
 */
export type CruxMetricName =
  | 'largest_contentful_paint' | 'interaction_to_next_paint' | 'cumulative_layout_shift'
  | 'first_contentful_paint' | 'experimental_time_to_first_byte';
/** A metric's 75th percentile and the share of experiences in its good, middle and poor bins. */
export interface CruxMetricData { p75: number; densities: [number, number, number] }
export type CruxRecordData = Partial<Record<CruxMetricName, CruxMetricData>>;
interface GoogleDate { year: number; month: number; day: number }

/** CrUX's own bin bounds per metric (Google's thresholds); CLS's are strings in the response. */
const BINS: Record<CruxMetricName, [number, number]> = {
  largest_contentful_paint: [2500, 4000],
  interaction_to_next_paint: [200, 500],
  cumulative_layout_shift: [0.1, 0.25],
  first_contentful_paint: [1800, 3000],
  experimental_time_to_first_byte: [800, 1800],
};
/** Names Google accepts in `metrics` besides those above; anything else is an INVALID_ARGUMENT. */
const OTHER_METRICS = new Set(['round_trip_time', 'navigation_types', 'form_factors']);
const FORM_FACTORS = new Set(['PHONE', 'DESKTOP', 'TABLET']);

export interface RecordedRequest { method: string; path: string; url: string; headers: http.IncomingHttpHeaders; body: any }

export async function startCruxServer(options: { apiKey?: string } = {}) {
  const apiKey = options.apiKey ?? 'AIzaSyTest-crux-key';
  const records = new Map<string, { metrics: CruxRecordData; period: { firstDate: GoogleDate; lastDate: GoogleDate } }>();
  const blockedKeys = new Set<string>();
  const faults: Array<{ status: number; retryAfter?: number }> = [];
  const requests: RecordedRequest[] = [];
  let latencyMs = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const error = (code: number, status: string, message: string, details?: object[]) => ({ status: code, body: { error: { code, message, status, ...(details ? { details } : {}) } } });
  const keyInvalid = () => error(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
    { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'chromeuxreport.googleapis.com' } },
  ]);
  const format = (name: CruxMetricName, value: number) => (name === 'cumulative_layout_shift' ? value.toFixed(2) : Math.round(value));

  function metric(name: CruxMetricName, data: CruxMetricData) {
    const [good, poor] = BINS[name];
    const bounds: Array<[number, number | undefined]> = [[0, good], [good, poor], [poor, undefined]];
    return {
      histogram: bounds.map(([start, end], i) => ({
        start: format(name, start), ...(end !== undefined ? { end: format(name, end) } : {}),
        // proto3 JSON leaves zero values out.
        ...(data.densities[i] ? { density: data.densities[i] } : {}),
      })),
      percentiles: { p75: format(name, data.p75) },
    };
  }

  function queryRecord(body: { origin?: string; url?: string; formFactor?: string; metrics?: string[] }) {
    if ((body.origin === undefined) === (body.url === undefined)) return error(400, 'INVALID_ARGUMENT', 'Exactly one of origin or url must be set.');
    if (body.formFactor !== undefined && !FORM_FACTORS.has(body.formFactor)) return error(400, 'INVALID_ARGUMENT', `Invalid value at 'form_factor' (type.googleapis.com/chrome.crux.v1.FormFactor), "${body.formFactor}"`);
    const unknown = (body.metrics ?? []).find((m) => !(m in BINS) && !OTHER_METRICS.has(m));
    if (unknown) return error(400, 'INVALID_ARGUMENT', `Invalid metric name: ${unknown}`);
    const normalized = body.url !== undefined ? body.url.replace(/[?#].*$/, '') : undefined;
    const key = body.origin ?? normalized!;
    const record = records.get(key);
    if (!record) return error(404, 'NOT_FOUND', 'chrome ux report data not found');
    const wanted = (name: string) => !body.metrics?.length || body.metrics.includes(name);
    const metrics = Object.fromEntries(Object.entries(record.metrics)
      .filter(([name]) => wanted(name))
      .map(([name, data]) => [name, metric(name as CruxMetricName, data)]));
    return {
      status: 200,
      body: {
        record: {
          key: { ...(body.formFactor ? { formFactor: body.formFactor } : {}), ...(body.origin !== undefined ? { origin: body.origin } : { url: normalized }) },
          metrics,
          collectionPeriod: record.period,
        },
        ...(body.url !== undefined && normalized !== body.url ? { urlNormalizationDetails: { originalUrl: body.url, normalizedUrl: normalized } } : {}),
      },
    };
  }

  function answer(request: http.IncomingMessage, url: URL, body: any): { status: number; body: unknown; headers?: Record<string, string> } {
    if (url.pathname !== '/v1/records:queryRecord' || request.method !== 'POST') return error(404, 'NOT_FOUND', 'Not Found');
    const key = (request.headers['x-goog-api-key'] as string | undefined) ?? url.searchParams.get('key');
    if (!key) return error(403, 'PERMISSION_DENIED', 'The request is missing a valid API key.');
    if (key !== apiKey) return keyInvalid();
    if (blockedKeys.has(key)) {
      return error(403, 'PERMISSION_DENIED', 'Requests to this API chromeuxreport.googleapis.com method chrome.crux.v1.RecordsService.QueryRecord are blocked.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_SERVICE_BLOCKED', domain: 'googleapis.com' },
      ]);
    }
    const fault = faults.shift();
    if (fault) {
      const quota = fault.status === 429;
      return {
        ...error(fault.status, quota ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE', quota ? "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'chromeuxreport.googleapis.com'." : 'The service is currently unavailable.'),
        ...(fault.retryAfter !== undefined ? { headers: { 'retry-after': String(fault.retryAfter) } } : {}),
      };
    }
    if (body === undefined) return error(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    return queryRecord(body);
  }

  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    let raw = '';
    for await (const chunk of request) raw += chunk;
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    requests.push({ method: request.method ?? 'GET', path: url.pathname, url: url.toString(), headers: request.headers, body });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    inFlight -= 1;
    const result = answer(request, url, body);
    response.writeHead(result.status, { 'content-type': 'application/json; charset=UTF-8', ...result.headers });
    response.end(JSON.stringify(result.body));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    apiKey,
    requests,
    /** The configuration that points the service at this server. */
    env: { CRUX_API_KEY: apiKey, GOOGLE_CRUX_URL: `${origin}/v1` },
    config: { apiKey, url: `${origin}/v1` },
    /** Field data for an origin ("https://example.com") or a URL; its period defaults to 28 days ending 2024-06-01. */
    setRecord(key: { origin: string } | { url: string }, metrics: CruxRecordData, period = { first: '2024-05-05', last: '2024-06-01' }) {
      const date = (iso: string) => {
        const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
        return { year, month, day };
      };
      records.set('origin' in key ? key.origin : key.url, { metrics, period: { firstDate: date(period.first), lastDate: date(period.last) } });
    },
    /** The next `times` queries are answered with this status (429 as an exhausted quota, else 503), with Retry-After when given. */
    failNext: (status: number, times = 1, retryAfter?: number) => {
      for (let i = 0; i < times; i += 1) faults.push({ status, ...(retryAfter !== undefined ? { retryAfter } : {}) });
    },
    /** The key stays valid but may no longer call this API (a key restricted to other APIs). */
    blockKey: () => void blockedKeys.add(apiKey),
    /** Every answer waits this long, so concurrent queries overlap. */
    setLatency: (ms: number) => void (latencyMs = ms),
    /** The most queries this server was answering at once. */
    maxInFlight: () => maxInFlight,
    reset: () => {
      records.clear();
      blockedKeys.clear();
      faults.length = 0;
      requests.length = 0;
      latencyMs = 0;
      maxInFlight = 0;
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export type CruxServer = Awaited<ReturnType<typeof startCruxServer>>;
