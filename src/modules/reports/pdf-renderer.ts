import type { FastifyBaseLogger } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { ProblemError } from '../../lib/problem.ts';
import { chromiumArgs } from '../../lib/chromium.ts';

export interface PdfRendererOptions {
  /** The Chromium to drive (config.chromiumPath); without one every render is a 503 that points at the printable page. */
  executablePath: string | undefined;
  log: FastifyBaseLogger;
  /** Renders at once (each holds a Chromium page and its memory). */
  maxConcurrent?: number;
  /** Renders that may wait for a free slot; any more are a 503 with Retry-After. */
  maxWaiting?: number;
  timeoutMs?: number;
}

const busy = () => new ProblemError('service_unavailable', 'Other reports are being rendered as PDF at the moment: try again in a few seconds', {
  headers: { 'retry-after': '5' },
});

/**
 * HTML to A4 PDF with one shared Chromium, started at the first render and closed with the app. Bounded: at most
 * `maxConcurrent` renders at once and `maxWaiting` waiting. The page runs no script and fetches nothing (every request is
 * aborted), so nothing a user wrote into a report (a query, a page address) can make the server's browser reach anywhere.
 */
export function createPdfRenderer({ executablePath, log, maxConcurrent = 2, maxWaiting = 2, timeoutMs = 20_000 }: PdfRendererOptions) {
  let browser: Promise<Browser> | undefined;
  let closed = false;
  let active = 0;
  const waiting: Array<() => void> = [];

  async function acquire() {
    if (active < maxConcurrent) {
      active++;
      return;
    }
    if (waiting.length >= maxWaiting) throw busy();
    // The slot is handed over by release(): `active` stays as it is.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  function release() {
    const next = waiting.shift();
    if (next) next();
    else active--;
  }

  function launched(path: string): Promise<Browser> {
    browser ??= chromium
      .launch({
        executablePath: path,
        timeout: timeoutMs,
        // Chromium's sandbox cannot start as root (containers); the page it renders runs no script and fetches nothing.
        args: chromiumArgs(),
      })
      .then(
        (b) => {
          b.on('disconnected', () => {
            browser = undefined;
          });
          return b;
        },
        (error: unknown) => {
          browser = undefined;
          throw error;
        },
      );
    return browser;
  }

  return {
    available: executablePath !== undefined,

    async render(html: string): Promise<Buffer> {
      if (executablePath === undefined || closed) {
        throw new ProblemError('service_unavailable', 'The PDF needs a browser that is not installed on this server: open report.html and print it to PDF from your browser instead');
      }
      await acquire();
      try {
        let b: Browser;
        try {
          b = await launched(executablePath);
        } catch (error) {
          log.error({ err: error, executablePath }, 'Chromium did not start for a report PDF');
          throw new ProblemError('service_unavailable', 'Chromium could not be started to render the PDF: open report.html and print it to PDF from the browser instead', {
            headers: { 'retry-after': '30' }, cause: error,
          });
        }
        const context = await b.newContext({ javaScriptEnabled: false });
        // page.pdf() takes no timeout: a Chromium that hangs would keep its slot for good, so the whole render is raced
        // against the bound, and a render that loses (or a browser that dies) is a 503 whose context is closed.
        let timer: NodeJS.Timeout | undefined;
        const expired = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the render took over ${timeoutMs} ms`)), timeoutMs);
        });
        try {
          return await Promise.race([expired, (async () => {
            await context.route('**/*', (route) => route.abort());
            const page = await context.newPage();
            await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
            return await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
          })()]);
        } catch (error) {
          log.error({ err: error }, 'a report PDF was not rendered');
          throw new ProblemError('service_unavailable', 'The PDF could not be rendered in time: try again, or open report.html and print it to PDF from the browser', {
            headers: { 'retry-after': '30' }, cause: error,
          });
        } finally {
          clearTimeout(timer);
          await context.close().catch(() => undefined);
        }
      } finally {
        release();
      }
    },

    async close() {
      closed = true;
      const b = await browser?.catch(() => undefined);
      await b?.close();
    },
  };
}

export type PdfRenderer = ReturnType<typeof createPdfRenderer>;
