import type { FastifyServerOptions } from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import type { LogLevel } from '../config.ts';

/** Structured JSON logs; anything that could carry a credential is redacted. */
export function loggerOptions(level: LogLevel): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.refresh_token',
        '*.access_token',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
}

/** The logger of a process before its Fastify instance exists (same level and redaction). */
export const startupLogger = (level: LogLevel) => pino(loggerOptions(level) as LoggerOptions);
