import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { createLlmWriter } from './llm-writer.ts';
import { readPageContent } from './page-content.ts';
import { createPolisher, createSummariser } from './planning-context.ts';

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

describe('a description written by the LLM writer from the page\'s opening', () => {
  const writer = () => createLlmWriter({ baseUrl, apiKey: undefined, model: 'test-model' }, pino({ level: 'silent' }));
  const story = readPageContent('<html lang="en"><title>Spain beat Russia | Sports</title><h1>Nadal keeps Spain alive against Russia in Davis Cup Finals</h1>'
    + '<p>Some nights belong to the old guard, and this was one of them in the Madrid arena.</p>'
    + '<p>Rafael Nadal kept Spain alive, then Marcel Granollers and Feliciano Lopez won the decisive doubles to give the hosts a 2-1 win over Russia in the Davis Cup Finals.</p>'
    + '<p>By: Sports desk</p></html>');
  const FAITHFUL = 'Rafael Nadal kept Spain alive, then Granollers and Lopez won the decisive doubles to give the hosts a 2-1 win over Russia in the Davis Cup Finals.';

  it('is asked with the headline and the opening paragraphs (not a byline), and proposed when it says only what they say', async () => {
    const llm = writer();
    answer = { status: 200, content: FAITHFUL };
    const budget = { used: 0 };
    assert.deepEqual(await createSummariser(llm, budget)(story, [50, 160], new Set()), { text: FAITHFUL, writer: 'llm:test-model' });
    const asked = seen.at(-1)!.body.messages[1].content as string;
    assert.match(asked, /^Headline: Nadal keeps Spain alive against Russia in Davis Cup Finals\nOpening of the page:\nSome nights belong/);
    assert.doesNotMatch(asked, /Sports desk/);
    assert.equal(budget.used, 1);
    await llm.close();
  });

  it('is not proposed when it adds what the page does not say, asks a question, breaks a bound or is taken; nor asked past the run\'s budget', async () => {
    const llm = writer();
    const summarise = createSummariser(llm, { used: 0 });
    for (const bad of [
      'Rafael Nadal announced his retirement after Spain lost to Russia, ending a glittering career in front of a stunned home crowd in Madrid.',
      'Can Rafael Nadal keep Spain alive in the Davis Cup Finals against Russia, with Granollers and Lopez in the decisive doubles?',
      'Nadal kept Spain alive.',
      // The opening's own words, saying something else: a score it does not give, a negation it does not make.
      'Russia beat Spain 3-0 in the Davis Cup Finals, as Granollers and Lopez lost the decisive doubles to the hosts.',
      'Rafael Nadal did not keep Spain alive, and Granollers and Lopez lost the decisive doubles against Russia in the Davis Cup Finals.',
    ]) {
      answer = { status: 200, content: bad };
      assert.equal(await summarise(story, [50, 160], new Set()), undefined, bad);
    }
    answer = { status: 200, content: FAITHFUL };
    assert.equal(await summarise(story, [50, 160], new Set([FAITHFUL.toLowerCase()])), undefined, 'used elsewhere on the site');
    const before = seen.length;
    assert.equal(await createSummariser(llm, { used: 50 })(story, [50, 160], new Set()), undefined);
    assert.equal(await createSummariser(undefined, { used: 0 })(story, [50, 160], new Set()), undefined);
    assert.equal(seen.length, before, 'neither past the budget nor without a model is anything asked');
    await llm.close();
  });
});
