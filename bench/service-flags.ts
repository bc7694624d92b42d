import fs from 'node:fs';

/**
 * The Node/V8 flags `npm start` runs the service with, read from package.json, so that
 * benchmarks measure the service exactly as it is started.
 */
export function serviceNodeFlags(): string[] {
  const start = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}
