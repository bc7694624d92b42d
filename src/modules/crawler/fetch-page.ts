import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import { assertPublicUrl, type PrivateTargets } from '../../lib/safe-http.ts';
import { createBodyDecoder, type CharsetReport } from './charset.ts';

export const USER_AGENT_TOKEN = 'SiteOptimizationBot';
export const USER_AGENT = `Mozilla/5.0 (compatible; ${USER_AGENT_TOKEN}/0.1; +https://github.com/site-optimization)`;

export interface FetchOptions {
  agent: Dispatcher;
  allowPrivate: PrivateTargets;
  maxBytes: number;
  /** Called with each decoded chunk of a text body as it arrives (streaming parsers). */
  onText?: (chunk: string) => void;
  /** How many times a 429/503 is retried after its Retry-After (capped at maxRetryWaitMs). */
  retries?: number;
  maxRetryWaitMs?: number;
  /** Told how long the host asked us to wait, so the whole crawl can pause. */
  onBackoff?: (waitMs: number) => void;
}

export interface FetchResult {
  url: string;
  /** HTTP status, or 0 when no response came (timeout, refused, blocked address). */
  status: number;
  error?: string;
  headers: Record<string, string>;
  location?: string;
  contentType: string;
  ttfbMs: number;
  bytes: number;
  truncated: boolean;
  body?: string;
  /** With `raw`: the body's bytes, undecoded (gzip sitemaps). */
  bytesBody?: Buffer;
  /** How a text body was decoded and what the header and the page declared. */
  charset?: CharsetReport;
}

const TEXT_TYPES = /text\/|html|xml|json/i;

/**
 * One GET without following redirects (the crawler follows them to record the chain).
 * keepBody keeps the body whatever its content type (robots.txt is read as Google reads
 * it, even when served as application/octet-stream); otherwise only text is read.
 * keepText keeps a text body (what the renderer is handed) and reads nothing more than without it.
 */
type FetchCall = FetchOptions & { keepBody?: boolean; keepText?: boolean; raw?: boolean; method?: 'GET' | 'HEAD' };

export async function fetchOnce(url: string, options: FetchCall): Promise<FetchResult> {
  const retries = options.retries ?? 2;
  for (let attempt = 0; ; attempt++) {
    const result = await fetchAttempt(url, options);
    const retryable = result.status === 429 || result.status === 503;
    if (!retryable || attempt >= retries) return result;
    const wait = Math.min(retryAfterMs(result.headers['retry-after']) ?? 1000 * 2 ** attempt, options.maxRetryWaitMs ?? 30_000);
    options.onBackoff?.(wait);
    await sleep(wait);
  }
}

async function fetchAttempt(url: string, options: FetchCall): Promise<FetchResult> {
  const started = performance.now();
  const base = { url, headers: {}, contentType: '', ttfbMs: 0, bytes: 0, truncated: false };
  try {
    // Parsed once: undici takes the URL as it is rather than parsing the string again.
    const parsed = new URL(url);
    assertPublicUrl(parsed, options.allowPrivate);
    const response = await request(parsed, {
      dispatcher: options.agent,
      method: options.method ?? 'GET',
      headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    const ttfbMs = performance.now() - started;
    const headers = flattenHeaders(response.headers);
    const contentType = headers['content-type'] ?? '';
    const result: FetchResult = { ...base, status: response.statusCode, headers, contentType, ttfbMs };
    if (headers.location) result.location = headers.location;

    const wantsBody = (options.raw || options.keepBody || TEXT_TYPES.test(contentType)) && response.statusCode < 300;
    if (!wantsBody) {
      await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
      return result;
    }
    const decoder = createBodyDecoder(contentType);
    const kept: string[] = [];
    const keptBytes: Buffer[] = [];
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      const room = options.maxBytes - result.bytes;
      const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
      result.bytes += piece.length;
      if (options.raw) keptBytes.push(piece);
      else {
        const text = decoder.push(piece);
        if (text !== '') options.onText?.(text);
        if (options.keepBody || options.keepText) kept.push(text);
      }
      if (chunk.length > room) {
        result.truncated = true; // over the cap: stop reading, keep what we have
        response.body.destroy();
        break;
      }
    }
    if (options.raw) result.bytesBody = Buffer.concat(keptBytes);
    else {
      const rest = decoder.end();
      if (rest !== '') options.onText?.(rest);
      if (options.keepBody || options.keepText) result.body = kept.join('') + rest;
      result.charset = decoder.charset;
    }
    return result;
  } catch (error) {
    return { ...base, status: 0, ttfbMs: performance.now() - started, error: describeError(error) };
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Retry-After as seconds or an HTTP date. */
export function retryAfterMs(value: string | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function describeError(error: unknown): string {
  const err = error as { code?: string; cause?: { code?: string; message?: string }; message?: string };
  const code = err.code ?? err.cause?.code;
  if (code === 'E_BLOCKED_ADDRESS' || err.cause?.code === 'E_BLOCKED_ADDRESS') return `blocked: ${code === 'E_BLOCKED_ADDRESS' ? err.message : err.cause?.message}`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
  if (code === 'ENOTFOUND') return 'DNS lookup failed';
  if (code === 'ECONNREFUSED') return 'connection refused';
  return err.message ?? 'request failed';
}
