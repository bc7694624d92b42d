import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { PrivateTargets } from './lib/safe-http.ts';

/** The only reader of process.env: everything else receives a validated Config. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** How long a starting process waits for an unreachable DATABASE_URL before giving up (seconds). */
  databaseWaitSeconds: number;
  dataDir: string;
  jwtSecret: string | undefined;
  /** Seals connector credentials at rest; generated into DATA_DIR when unset. */
  secretsKey: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  redisUrl: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  allowPrivateTargets: PrivateTargets;
  rateLimitPerMinute: number;
  /** Requests without a valid token, per client address and minute (0: off). */
  rateLimitAnonymousPerMinute: number;
  trustProxy: boolean;
  /** Work audit and task jobs inside the API process (default); off when `npm run worker` processes do it. */
  jobsInProcess: boolean;
  /** Tasks one process executes (and verifies) at once. */
  taskWorkers: number;
  /**
   * Prometheus metrics (/metrics) on a listener of their own, off unless METRICS_PORT is set; on loopback unless
   * METRICS_HOST says otherwise, so they are never public by default (the API's port never serves them).
   */
  metrics: { port: number; host: string } | undefined;
  /** OpenTelemetry traces to this OTLP/HTTP collector (OTEL_EXPORTER_OTLP_ENDPOINT, e.g. http://collector:4318); off when unset. */
  otlpEndpoint: string | undefined;
  /** The service's public base URL (Google redirects browsers back to it; e-mailed links point at it). */
  publicUrl: string;
  /** Where e-mail goes: an SMTP server, or (unset) the log, for the operator to pass on. */
  mail: { smtpUrl: string | undefined; from: string };
  /** Google sign-in and data access; undefined without GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET. */
  google: GoogleConfig | undefined;
  /** Chrome UX Report field data (an API key, not OAuth: the data is public); undefined without CRUX_API_KEY. */
  crux: { apiKey: string; url: string } | undefined;
  /** An OpenAI-compatible chat-completions endpoint that may improve drafted wording (off when unset). */
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  logLevel: LogLevel;
  /** The Chromium that renders report PDFs: CHROMIUM_PATH, or `chromium` found on PATH; undefined without one (the PDF is then 503). */
  chromiumPath: string | undefined;
  /** Pages Lighthouse measures in each audit, one per template (PAGE_SPEED_PAGES, 0-20; 0 turns the lab off). */
  pageSpeedPages: number;
}

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  jwksUrl: string;
  issuer: string;
  searchConsoleUrl: string;
  analyticsDataUrl: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  const duration = (name: string, fallbackSeconds: number, minSeconds: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallbackSeconds;
    const seconds = parseDuration(raw);
    if (seconds === undefined || seconds < minSeconds) {
      problems.push(`${name} must be a duration of at least ${minSeconds}s such as 900, 15m, 12h or 30d (got "${raw}")`);
      return fallbackSeconds;
    }
    return seconds;
  };

  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes'].includes(raw)) return true;
    if (['false', '0', 'no'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };

  const url = (name: string, protocols: string[]): string | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      // The value may hold a password: name the variable, never echo it.
      problems.push(`${name} must be a ${protocols.map((p) => p.replace(':', '://')).join(' or ')} URL`);
      return undefined;
    }
  };

  const jwtSecret = read('JWT_SECRET');
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret) < 32) {
    problems.push('JWT_SECRET must be at least 32 bytes long (HS256 needs a key as long as its hash)');
  }

  const secretsKey = read('SECRETS_KEY');
  if (secretsKey !== undefined && Buffer.byteLength(secretsKey) < 32) {
    problems.push('SECRETS_KEY must be at least 32 bytes long');
  }

  const adminEmail = read('ADMIN_EMAIL');
  const adminPassword = env.ADMIN_PASSWORD;
  if ((adminEmail === undefined) !== (adminPassword === undefined || adminPassword === '')) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (adminPassword !== undefined && adminPassword !== '' && adminPassword.length < 10) {
    problems.push('ADMIN_PASSWORD must be at least 10 characters long');
  }

  const googleId = read('GOOGLE_CLIENT_ID');
  const googleSecret = read('GOOGLE_CLIENT_SECRET');
  if ((googleId === undefined) !== (googleSecret === undefined)) problems.push('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
  // Every Google base URL is configuration, so tests (and proxies) can stand in for Google.
  const googleUrl = (name: string, fallback: string) => url(name, ['http:', 'https:']) ?? fallback;
  const google: GoogleConfig | undefined = googleId && googleSecret ? {
    clientId: googleId,
    clientSecret: googleSecret,
    authUrl: googleUrl('GOOGLE_AUTH_URL', 'https://accounts.google.com/o/oauth2/v2/auth'),
    tokenUrl: googleUrl('GOOGLE_TOKEN_URL', 'https://oauth2.googleapis.com/token'),
    revokeUrl: googleUrl('GOOGLE_REVOKE_URL', 'https://oauth2.googleapis.com/revoke'),
    jwksUrl: googleUrl('GOOGLE_JWKS_URL', 'https://www.googleapis.com/oauth2/v3/certs'),
    issuer: read('GOOGLE_ISSUER') ?? 'https://accounts.google.com',
    searchConsoleUrl: googleUrl('GOOGLE_SEARCH_CONSOLE_URL', 'https://www.googleapis.com/webmasters/v3'),
    analyticsDataUrl: googleUrl('GOOGLE_ANALYTICS_DATA_URL', 'https://analyticsdata.googleapis.com/v1beta'),
  } : undefined;

  // The key travels in a request header, so it must be printable ASCII; like every secret, never echoed.
  const cruxKey = read('CRUX_API_KEY');
  if (cruxKey !== undefined && !/^[\x21-\x7e]+$/.test(cruxKey)) problems.push('CRUX_API_KEY must be printable ASCII without spaces');
  const cruxUrl = googleUrl('GOOGLE_CRUX_URL', 'https://chromeuxreport.googleapis.com/v1');
  const crux = cruxKey === undefined ? undefined : { apiKey: cruxKey, url: cruxUrl.replace(/\/$/, '') };

  const llmBaseUrl = url('LLM_BASE_URL', ['http:', 'https:']);
  const llmModel = read('LLM_MODEL');
  if ((llmBaseUrl === undefined) !== (llmModel === undefined) && !problems.some((p) => p.startsWith('LLM_BASE_URL'))) {
    problems.push('LLM_BASE_URL and LLM_MODEL must be set together');
  }

  const logLevel = (read('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const chromiumPath = read('CHROMIUM_PATH');
  if (chromiumPath !== undefined && !path.isAbsolute(chromiumPath)) problems.push(`CHROMIUM_PATH must be an absolute path (got "${chromiumPath}")`);

  const port = integer('PORT', 8080, 0, 65535);
  const publicUrl = (url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/$/, '');
  const mailFrom = read('MAIL_FROM') ?? `Site Optimization <no-reply@${new URL(publicUrl).hostname}>`;
  // A bare address or a display name with one in angle brackets, on one line (it becomes a header).
  if (!/^([^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(mailFrom)) {
    problems.push(`MAIL_FROM must be an e-mail address, optionally with a name: "Name <address@example.com>" (got "${mailFrom}")`);
  }
  const config: Config = {
    port,
    // Only this machine unless HOST says otherwise: the quick start uses a sample password.
    host: read('HOST') ?? '127.0.0.1',
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseWaitSeconds: duration('DATABASE_WAIT', 60, 0),
    dataDir: path.resolve(read('DATA_DIR') ?? './data'),
    jwtSecret,
    secretsKey,
    accessTokenTtlSeconds: duration('ACCESS_TOKEN_TTL', 15 * 60, 30),
    refreshTokenTtlSeconds: duration('REFRESH_TOKEN_TTL', 30 * 24 * 3600, 60),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    adminEmail,
    adminPassword: adminPassword === '' ? undefined : adminPassword,
    allowPrivateTargets: boolean('ALLOW_PRIVATE_TARGETS', false),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', 1200, 0, 1_000_000),
    rateLimitAnonymousPerMinute: integer('RATE_LIMIT_ANONYMOUS_PER_MINUTE', 300, 0, 1_000_000),
    trustProxy: boolean('TRUST_PROXY', false),
    jobsInProcess: boolean('JOBS_IN_PROCESS', true),
    taskWorkers: integer('TASK_WORKERS', 4, 1, 64),
    otlpEndpoint: url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
    metrics: read('METRICS_PORT') === undefined ? undefined : { port: integer('METRICS_PORT', 9464, 0, 65535), host: read('METRICS_HOST') ?? '127.0.0.1' },
    publicUrl,
    mail: { smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']), from: mailFrom },
    google,
    crux,
    llm: llmBaseUrl && llmModel ? { baseUrl: llmBaseUrl, apiKey: read('LLM_API_KEY'), model: llmModel } : undefined,
    logLevel: logLevel as LogLevel,
    chromiumPath: chromiumPath ?? onPath(['chromium', 'chromium-browser'], read('PATH')),
    pageSpeedPages: integer('PAGE_SPEED_PAGES', 20, 0, 20),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The first of these programs found executable on PATH (what `command -v` finds), or undefined. */
function onPath(names: readonly string[], searchPath: string | undefined): string | undefined {
  for (const name of names) {
    for (const dir of (searchPath ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d))) {
      const candidate = path.join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** "900" and "900s" are seconds; "15m", "12h", "30d" use their unit. */
export function parseDuration(raw: string): number | undefined {
  const match = /^(\d+)\s*([smhd]?)$/i.exec(raw.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? '').toLowerCase() || 's';
  return Number(match[1]) * (UNIT_SECONDS[unit] ?? 1);
}
