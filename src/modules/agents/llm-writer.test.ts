import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { createLlmWriter } from './llm-writer.ts';
import { readPageContent } from './page-content.ts';
import { createPolisher } from './planning-context.ts';

/** A local server speaking the chat-completions wire format; each test sets the next answer. */
let answer: { status: number; content?: string } = { status: 200, content: '' };
const seen: Array<{ authorization: string | undefined; body: any }> = [];
let server: http.Server;
let baseUrl: string;

before(async () => {
  server = http.createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    seen.push({ authorization: request.headers.authorization, body: JSON.parse(raw) });
    const body = answer.status === 200
      ? { id: 'chatcmpl-1', object: 'chat.completion', model: 'test-model', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer.content } }] }
      : { error: { message: 'overloaded', type: 'server_error' } };
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const content = readPageContent('<title>Oak tables | Shop</title><h1>Oak tables</h1><p>Our tables are cut from a single oak board in our Devon workshop.</p>');
const DRAFT = 'Our tables are cut from a single oak board in our Devon workshop, oiled by hand, ready in six weeks.';
const GOOD = 'Solid oak tables cut from a single board in our Devon workshop, oiled by hand and ready in six weeks.';

describe('the LLM writer', () => {
  const writer = () => createLlmWriter({ baseUrl, apiKey: 'sk-test', model: 'test-model' }, pino({ level: 'silent' }));

  it('rewords a draft through the chat-completions endpoint, with the key as a bearer token', async () => {
    const llm = writer();
    answer = { status: 200, content: `"${GOOD}"` };
    const result = await createPolisher(llm, ' | Shop')('meta_description', DRAFT, content, [80, 160], new Set());
    assert.deepEqual(result, { text: GOOD, writer: 'llm:test-model' });
    const request = seen.at(-1)!;
    assert.equal(request.authorization, 'Bearer sk-test');
    assert.equal(request.body.model, 'test-model');
    assert.match(request.body.messages[1].content, /single oak board/);
    assert.match(request.body.messages[0].content, /between 80 and 160 characters/);
    await llm.close();
  });

  it('keeps the draft when the answer breaks the rules the draft passes, or the endpoint fails', async () => {
    const llm = writer();
    const polish = createPolisher(llm, ' | Shop');
    for (const bad of ['x'.repeat(161), 'Too short.', `<b>${GOOD.slice(0, 120)}</b>`]) {
      answer = { status: 200, content: bad };
      assert.deepEqual(await polish('meta_description', DRAFT, content, [80, 160], new Set()), { text: DRAFT, writer: 'extractive' }, bad);
    }
    answer = { status: 200, content: GOOD };
    assert.equal((await polish('meta_description', DRAFT, content, [80, 160], new Set([GOOD.toLowerCase()]))).writer, 'extractive', 'used elsewhere on the site');
    answer = { status: 200, content: 'Handmade solid oak tables from Devon' };
    assert.equal((await polish('title', 'Oak tables made by hand | Shop', content, [20, 60], new Set())).writer, 'extractive', 'dropped the site suffix');
    answer = { status: 500 };
    assert.equal((await polish('meta_description', DRAFT, content, [80, 160], new Set())).text, DRAFT);
    await llm.close();
  });

  it('is not called at all without configuration', async () => {
    const before = seen.length;
    assert.deepEqual(await createPolisher(undefined, '')('title', 'Oak tables made by hand', content, [20, 60], new Set()), { text: 'Oak tables made by hand', writer: 'extractive' });
    assert.equal(seen.length, before);
  });
});
