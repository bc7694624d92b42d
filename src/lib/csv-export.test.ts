import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { fileNamePart, keysetBatches, sendCsv, type CsvColumn } from './csv-export.ts';

interface Row { name: string; n: number | null }
const columns: Array<CsvColumn<Row>> = [{ header: 'name', value: (r) => r.name }, { header: 'n', value: (r) => r.n }];

async function serve(batches: AsyncIterable<readonly Row[]>) {
  const app = Fastify({ logger: false });
  app.get('/file', (_request, reply) => sendCsv(reply, { filename: 'rows.csv', columns, batches }));
  try {
    return await app.inject({ method: 'GET', url: '/file' });
  } finally {
    await app.close();
  }
}

describe('CSV exports', () => {
  it('writes a heading row and every row of every batch, quoted where RFC 4180 needs it, UTF-8 with a byte order mark', async () => {
    const rows: Row[] = [
      { name: 'plain', n: 1 }, { name: 'a, "quoted" one', n: 2 }, { name: 'two\nlines', n: null }, { name: 'Müller – 東京', n: -3.5 }, { name: 'last', n: 0 },
    ];
    // The rows' places as their seek key.
    const read = async (after: number | undefined, limit: number) => rows.slice((after ?? -1) + 1, (after ?? -1) + 1 + limit);
    const res = await serve(keysetBatches(read, (last) => rows.indexOf(last), 2));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="rows.csv"');
    assert.equal(res.rawPayload.subarray(0, 3).toString('hex'), 'efbbbf', 'a byte order mark');
    assert.equal(res.rawPayload.subarray(3).toString('utf8'), 'name,n\nplain,1\n"a, ""quoted"" one",2\n"two\nlines",\nMüller – 東京,-3.5\nlast,0\n');
  });

  it('writes text a spreadsheet would run as a formula with a leading apostrophe, and numbers as numbers', async () => {
    const res = await serve(keysetBatches(async (after) => (after === undefined ? [
      { name: '=HYPERLINK("http://evil.example","x")', n: -1 }, { name: '+1', n: 1 }, { name: '-2', n: 2 }, { name: '@SUM(A1)', n: 3 },
    ] : []), (last) => last.n, 10));
    const lines = res.rawPayload.subarray(3).toString('utf8').trim().split('\n');
    assert.deepEqual(lines.slice(1), [`"'=HYPERLINK(""http://evil.example"",""x"")",-1`, "'+1,1", "'-2,2", "'@SUM(A1),3"]);
  });

  it('reads batch after batch, each after the last row read, until one comes back short, and none after an empty one', async () => {
    const asked: Array<number | undefined> = [];
    const read = async (after: number | undefined, limit: number) => {
      asked.push(after);
      const from = after === undefined ? 0 : after + 1;
      return Array.from({ length: Math.max(0, Math.min(limit, 4 - from)) }, (_, i) => ({ name: `r${from + i}`, n: from + i }));
    };
    const seen: number[] = [];
    for await (const batch of keysetBatches(read, (last) => last.n!, 2)) seen.push(batch.length);
    assert.deepEqual([asked, seen], [[undefined, 1, 3], [2, 2]]);
  });

  it('goes on after the last row read: a row inserted ahead of it between batches neither repeats nor shifts a row', async () => {
    // A table in name order; the export reads two rows at a time.
    const table = ['b', 'd', 'f', 'h', 'j'];
    const read = async (after: string | undefined, limit: number) => table.filter((name) => after === undefined || name > after).slice(0, limit).map((name) => ({ name, n: null }));
    const names: string[] = [];
    for await (const batch of keysetBatches(read, (last) => last.name, 2)) {
      names.push(...batch.map((r) => r.name));
      // After the first batch, a row before it ('a': an offset of 2 would read 'd' again) and one still to come ('g').
      if (names.length === 2) table.push('a', 'g'), table.sort();
    }
    assert.deepEqual(names, ['b', 'd', 'f', 'g', 'h', 'j']);
  });

  it('aborts the download when a read fails after the first batch: no file that looks whole', async () => {
    async function* failing() {
      yield [{ name: 'first', n: 1 }];
      throw new Error('the database went away');
    }
    const outcome = await serve(failing()).then((res) => res.rawPayload.toString('utf8'), (error: Error) => `rejected: ${error.message}`);
    assert.equal(outcome, 'rejected: response destroyed before completion');
  });

  it('makes file names of letters, digits, dots and dashes', () => {
    assert.equal(fileNamePart('Shop.Example.COM'), 'shop.example.com');
    assert.equal(fileNamePart('a "b"\r\nc/../d'), 'a-b-c-..-d');
    assert.equal(fileNamePart('"""'), 'export');
  });
});
