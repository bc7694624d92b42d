import { pipeline, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { stringify } from 'csv-stringify';
import { Type } from 'typebox';

/** A column of an export: its heading and how a row gives its cell (a number stays a number: no formula escape, no quotes). */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/** What an export sends: its file name, its columns, and its rows in batches as the database gives them. */
export interface CsvExport<T> {
  filename: string;
  columns: ReadonlyArray<CsvColumn<T>>;
  batches: AsyncIterable<readonly T[]>;
}

/** Rows read this many at a time: a batch is all an export holds in memory. */
export const EXPORT_BATCH = 5_000;

/**
 * Every row of a read in a stable unique order, a batch at a time, each batch the rows after the
 * last one read (keyset paging: `seek` is that row's place in the order). A row written or
 * deleted meanwhile cannot shift the rows still to come, as it would under an offset (a row
 * inserted ahead of it would give the last row read again), and a batch deep in the set costs
 * what the first does. For an order whose values do not change (a creation time, a name); a
 * list sorted by a figure that changes is read in one snapshot instead (db/snapshot-cursor.ts).
 */
export async function* keysetBatches<T, K>(
  read: (after: K | undefined, limit: number) => Promise<readonly T[]>, seek: (last: T) => K, size = EXPORT_BATCH,
): AsyncGenerator<readonly T[]> {
  for (let after: K | undefined; ;) {
    const rows = await read(after, size);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    after = seek(rows.at(-1)!);
  }
}

/** Batches with each row made into an export's (a batch at a time: what a row needs of other tables is read for the batch at once). */
export async function* mapBatches<T, U>(batches: AsyncIterable<readonly T[]>, map: (batch: readonly T[]) => Promise<readonly U[]> | readonly U[]): AsyncGenerator<readonly U[]> {
  for await (const batch of batches) yield await map(batch);
}

/** A file name of letters, digits, dots and dashes only: it goes into a header unquoted by any user's text. */
export const fileNamePart = (text: string) => text.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'export';

/** The OpenAPI response of an export: a CSV file. */
export const CsvResponse = (description: string) => ({
  description,
  content: { 'text/csv': { schema: Type.String({ description: 'RFC 4180 CSV, UTF-8 with a byte order mark (Excel reads it as UTF-8); a heading row first' }) } },
});

/**
 * Streams an export as CSV (RFC 4180, UTF-8 with a byte order mark so that spreadsheets read
 * accents and scripts right). Text that a spreadsheet would run as a formula (=, +, -, @ first:
 * a search query or a page title is anyone's text) is written with a leading apostrophe
 * (OWASP's CSV injection advice, csv-stringify's escape_formulas). Call it once the request is
 * authorized and valid: from here on an error can only abort the download.
 */
export function sendCsv<T>(reply: FastifyReply, file: CsvExport<T>) {
  async function* records() {
    for await (const batch of file.batches) for (const row of batch) yield file.columns.map((c) => c.value(row) ?? null);
  }
  // pipeline: a client that goes away stops the reads (the source is destroyed with the CSV stream), and a failed read
  // destroys the CSV stream, so that Fastify aborts the response: the client sees a failed download, never a file cut short
  // that looks whole.
  const csv = pipeline(Readable.from(records()), stringify({ bom: true, escape_formulas: true, header: true, columns: file.columns.map((c) => c.header) }), (error) => {
    if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') reply.log.error({ err: error }, 'export failed while streaming');
  });
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}
