import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { fileNamePart, pagedBatches, sendCsv, type CsvColumn } from './csv-export.ts';

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
    const read = async (limit: number, offset: number) => rows.slice(offset, offset + limit);
    const res = await serve(pagedBatches(read, 2));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="rows.csv"');
    assert.equal(res.rawPayload.subarray(0, 3).toString('hex'), 'efbbbf', 'a byte order mark');
    assert.equal(res.rawPayload.subarray(3).toString('utf8'), 'name,n\nplain,1\n"a, ""quoted"" one",2\n"two\nlines",\nMüller – 東京,-3.5\nlast,0\n');
  });

  it('writes text a spreadsheet would run as a formula with a leading apostrophe, and numbers as numbers', async () => {
    const res = await serve(pagedBatches(async (_l, offset) => (offset === 0 ? [
      { name: '=HYPERLINK("http://evil.example","x")', n: -1 }, { name: '+1', n: 1 }, { name: '-2', n: 2 }, { name: '@SUM(A1)', n: 3 },
    ] : []), 10));
    const lines = res.rawPayload.subarray(3).toString('utf8').trim().split('\n');
    assert.deepEqual(lines.slice(1), [`"'=HYPERLINK(""http://evil.example"",""x"")",-1`, "'+1,1", "'-2,2", "'@SUM(A1),3"]);
  });

  it('reads batch after batch until one comes back short, and none after an empty one', async () => {
    const asked: number[] = [];
    const read = async (limit: number, offset: number) => {
      asked.push(offset);
      return Array.from({ length: Math.max(0, Math.min(limit, 4 - offset)) }, (_, i) => ({ name: `r${offset + i}`, n: offset + i }));
    };
    const seen: number[] = [];
    for await (const batch of pagedBatches(read, 2)) seen.push(batch.length);
    assert.deepEqual([asked, seen], [[0, 2, 4], [2, 2]]);
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
