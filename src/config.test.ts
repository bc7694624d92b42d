import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, parseDuration } from './config.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1', 'only this machine unless HOST is set');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.databaseWaitSeconds, 60);
    assert.match(config.dataDir, /\/data$/);
    assert.equal(config.accessTokenTtlSeconds, 900);
    assert.equal(config.allowPrivateTargets, false);
    assert.equal(config.rateLimitPerMinute, 1200);
    assert.equal(config.logLevel, 'info');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000', HOST: '0.0.0.0', DATABASE_WAIT: '0', DATABASE_URL: 'postgres://u:p@db:5432/app', DATA_DIR: '/var/lib/sos',
      JWT_SECRET: 'x'.repeat(32), ACCESS_TOKEN_TTL: '5m', REDIS_URL: 'redis://cache:6379', ADMIN_EMAIL: 'a@b.co',
      ADMIN_PASSWORD: 'long-enough-1', ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'debug',
    });
    assert.equal(config.port, 9000);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.databaseWaitSeconds, 0);
    assert.equal(config.accessTokenTtlSeconds, 300);
    assert.equal(config.dataDir, '/var/lib/sos');
    assert.equal(config.allowPrivateTargets, true);
    assert.equal(config.rateLimitPerMinute, 0);
    assert.equal(config.redisUrl, 'redis://cache:6379');
  });

  it('reports every bad value at once, without echoing secrets', () => {
    try {
      loadConfig({
        PORT: 'eighty', DATABASE_URL: 'mysql://root:hunter2@db/x', JWT_SECRET: 'short', ACCESS_TOKEN_TTL: 'soon',
        ALLOW_PRIVATE_TARGETS: 'maybe', RATE_LIMIT_PER_MINUTE: '-1', LOG_LEVEL: 'loud', ADMIN_EMAIL: 'a@b.co',
      });
      assert.fail('should have thrown');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 8);
      for (const name of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'ACCESS_TOKEN_TTL', 'ALLOW_PRIVATE_TARGETS', 'RATE_LIMIT_PER_MINUTE', 'LOG_LEVEL', 'ADMIN_PASSWORD']) {
        assert.match(error.message, new RegExp(name));
      }
      assert.doesNotMatch(error.message, /hunter2/);
    }
  });

  it('reads the secrets key and the LLM writer, which needs a URL and a model together', () => {
    const config = loadConfig({ SECRETS_KEY: 'k'.repeat(32), LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3', LLM_API_KEY: 'sk-1' });
    assert.equal(config.secretsKey, 'k'.repeat(32));
    assert.deepEqual(config.llm, { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-1', model: 'llama3' });
    assert.equal(loadConfig({}).llm, undefined);
    assert.throws(() => loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }), /LLM_BASE_URL and LLM_MODEL must be set together/);
    assert.throws(() => loadConfig({ SECRETS_KEY: 'short' }), /SECRETS_KEY must be at least 32 bytes/);
  });

  it('reads Google\'s settings, every base URL overridable, and the public URL', () => {
    assert.equal(loadConfig({}).google, undefined);
    assert.equal(loadConfig({ PORT: '9000' }).publicUrl, 'http://localhost:9000');
    const config = loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', GOOGLE_TOKEN_URL: 'http://127.0.0.1:1/token', PUBLIC_URL: 'https://seo.example.com/' });
    assert.equal(config.google?.tokenUrl, 'http://127.0.0.1:1/token');
    assert.equal(config.google?.authUrl, 'https://accounts.google.com/o/oauth2/v2/auth');
    assert.equal(config.publicUrl, 'https://seo.example.com');
    assert.throws(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' }), /GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together/);
  });

  it('reads the Chrome UX Report key and URL, never echoing the key', () => {
    assert.equal(loadConfig({}).crux, undefined);
    assert.equal(loadConfig({ GOOGLE_CRUX_URL: 'http://127.0.0.1:1/v1' }).crux, undefined, 'no key, no field data');
    assert.deepEqual(loadConfig({ CRUX_API_KEY: 'AIzaKey-1' }).crux, { apiKey: 'AIzaKey-1', url: 'https://chromeuxreport.googleapis.com/v1' });
    assert.deepEqual(loadConfig({ CRUX_API_KEY: 'AIzaKey-1', GOOGLE_CRUX_URL: 'http://127.0.0.1:1/v1/' }).crux, { apiKey: 'AIzaKey-1', url: 'http://127.0.0.1:1/v1' });
    assert.throws(() => loadConfig({ CRUX_API_KEY: 'AIzaKey-1', GOOGLE_CRUX_URL: 'ftp://crux.example.com' }), /GOOGLE_CRUX_URL must be a http:\/\/ or https:\/\/ URL/);
    assert.throws(() => loadConfig({ CRUX_API_KEY: 'AIza hunter2' }), (error: Error) =>
      /CRUX_API_KEY must be printable ASCII/.test(error.message) && !error.message.includes('hunter2'));
  });

  it('reads where e-mail goes: SMTP_URL (none: the log) and MAIL_FROM, named after the public host by default', () => {
    assert.deepEqual(loadConfig({}).mail, { smtpUrl: undefined, from: 'Site Optimization <no-reply@localhost>' });
    const config = loadConfig({ SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465', PUBLIC_URL: 'https://seo.example.com' });
    assert.deepEqual(config.mail, { smtpUrl: 'smtps://mailer:pw@smtp.example.com:465', from: 'Site Optimization <no-reply@seo.example.com>' });
    assert.equal(loadConfig({ MAIL_FROM: 'SEO Team <seo@example.com>' }).mail.from, 'SEO Team <seo@example.com>');
    assert.equal(loadConfig({ MAIL_FROM: 'seo@example.com' }).mail.from, 'seo@example.com');
    assert.throws(() => loadConfig({ SMTP_URL: 'http://user:hunter2@mail.example.com' }), (error: Error) =>
      /SMTP_URL must be a smtp:\/\/ or smtps:\/\/ URL/.test(error.message) && !error.message.includes('hunter2'));
    assert.throws(() => loadConfig({ MAIL_FROM: 'nobody' }), /MAIL_FROM must be an e-mail address/);
    assert.throws(() => loadConfig({ MAIL_FROM: 'a@b.co\r\nBcc: x@y.z' }), /MAIL_FROM/, 'no header injection');
  });

  it('parses durations', () => {
    assert.equal(parseDuration('900'), 900);
    assert.equal(parseDuration('15m'), 900);
    assert.equal(parseDuration('2h'), 7200);
    assert.equal(parseDuration('30d'), 2_592_000);
    assert.equal(parseDuration('1.5h'), undefined);
  });
});
