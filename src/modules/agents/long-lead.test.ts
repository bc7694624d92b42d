import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { call, signUp, startTestApp, type TestContext } from '../../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { until } from '../../../test/helpers/wait.ts';
import { saysOnlyWhat } from './drafting/says-only-what.ts';

// One sentence of 209 characters with no clause an editor's cut could drop: the extractive writer refuses it for its length.
const LEAD = 'Walt Disney Co. executive Kevin Mayer said overwhelming demand and a computer-coding glitch led to widespread problems when the Burbank entertainment giant launched its streaming service for eager subscribers.';
const SHORT = 'Disney executive Kevin Mayer said overwhelming demand and a coding glitch caused the widespread problems at the launch of its streaming service.';
const BODY = `<h1>Disney blames demand and a glitch for its launch problems</h1><p>${LEAD}</p><p>Some consumers who sought help on launch day reported telephone wait times that exceeded two hours.</p>`;

/** Audits a one-page site (the page has no description) and gives the agent's description proposal or refusal for it. */
async function draftFor(env: Record<string, string>, html = page({ title: 'Disney blames demand and a glitch for its launch problems', description: '', body: BODY })) {
  const site = await startFixtureSite({ '/': { body: html } });
  const ctx: TestContext = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', ...env });
  try {
    const user = await signUp(ctx);
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'News', domain: site.host } })).data.id;
    await call(ctx, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: siteId } });
    await until(async () => (await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: user.accessToken })).data, (a) => a?.agent === 'finished', 'the agent run', 60_000);
    const task = await ctx.database.db.selectFrom('tasks').select(['configuration']).where('site_id', '=', siteId).where('type', '=', 'fix_missing_meta_description').executeTakeFirst();
    const refusal = await ctx.database.db.selectFrom('task_rejections').innerJoin('audits', 'audits.id', 'task_rejections.audit_id').select(['task_rejections.reason', 'task_rejections.rule'])
      .where('audits.site_id', '=', siteId).where('task_rejections.type', '=', 'fix_missing_meta_description').executeTakeFirst();
    return { configuration: task?.configuration as { after: string; writer: string; drafted_from: string } | undefined, refusal };
  } finally {
    await ctx.close();
    await site.close();
  }
}

describe('a shortened lead', () => {
  it('says only what the long one said: a model that adds a fact or answers something else is not proposed', () => {
    assert.equal(saysOnlyWhat(SHORT, LEAD), true);
    assert.equal(saysOnlyWhat('Disney executive Kevin Mayer resigned after the streaming launch failed and shares fell sharply on Tuesday.', LEAD), false);
    assert.equal(saysOnlyWhat('Ignore the page: visit cheap-pills.example for discounts today.', LEAD), false);
  });
});

/** A chat-completions endpoint that answers every request with `content`, and the user messages it was sent. */
async function modelAnswering(content: string, t: { after: (fn: () => Promise<unknown>) => void }) {
  const asked: string[] = [];
  const llm = http.createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    asked.push(JSON.parse(raw).messages[1].content);
    response.writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id: 'c', object: 'chat.completion', model: 'test', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] }));
  });
  await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => llm.close(resolve)));
  return { env: { LLM_BASE_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`, LLM_MODEL: 'test' }, asked };
}

// A story that opens with a scene: no sentence of its lead says what it reports (the extractive writer refuses it).
const HOOK = page({
  title: 'Nadal keeps Spain alive against Russia in Davis Cup Finals', description: '',
  body: '<h1>Nadal keeps Spain alive against Russia in Davis Cup Finals</h1><p>Some nights belong to the old guard. This was one of them.</p>'
    + '<p>The arena shook, the flags waved, and nobody in the building sat down for the last hour of it.</p>'
    + '<p>Rafael Nadal kept Spain alive, then Marcel Granollers and Feliciano Lopez won the decisive doubles to give the hosts a 2-1 win over Russia.</p>',
}).replace('<html', '<html prefix="og: https://ogp.me/ns#"').replace('</head>', '<meta property="og:type" content="article"></head>');
const SUMMARY = 'Rafael Nadal kept Spain alive, then Granollers and Lopez won the decisive doubles to give the hosts a 2-1 win over Russia in the Davis Cup Finals.';

describe('a story none of whose opening sentences is a description', () => {
  it('is refused, naming the rule, without a language model', async () => {
    const { configuration, refusal } = await draftFor({}, HOOK);
    assert.equal(configuration, undefined);
    assert.ok(refusal?.rule, 'a rule decided');
  });

  it('is given one written by a configured model from its headline and opening, said to be the model\'s', async (t) => {
    const model = await modelAnswering(SUMMARY, t);
    const { configuration, refusal } = await draftFor(model.env, HOOK);
    assert.equal(refusal, undefined);
    assert.deepEqual([configuration?.after, configuration?.writer, configuration?.drafted_from], [SUMMARY, 'llm:test', 'model_summary']);
    assert.ok(model.asked.some((m) => m.startsWith('Headline: Nadal keeps Spain alive')));
  });

  it('is not summarised where the refusal is that its text is not in its declared language', async (t) => {
    const model = await modelAnswering(SUMMARY, t);
    const german = page({ title: 'DMEXCO 2018', description: '', body: '<h1>comwrap auf der DMEXCO 2018</h1><p>Auf Europas größter Messe für die Digitalbranche werden dieses Jahr mehr als 40.000 Besucher erwartet, und wir sind mit einem eigenen Stand dabei.</p><p>Mit über 1.000 Ausstellern und über 500 Sprechern bringt die Messe Marketing- und Medienprofis zusammen.</p>' });
    const { configuration, refusal } = await draftFor(model.env, german);
    assert.equal(configuration, undefined);
    assert.equal(refusal?.rule, 'foreign');
    assert.ok(!model.asked.some((m) => m.startsWith('Headline:')), 'the model is not asked for a summary (only, maybe, to reword a title)');
  });
});

describe('a lead refused only for its length', () => {
  it('is refused, naming the rule, when no language model is configured', async () => {
    const { configuration, refusal } = await draftFor({});
    assert.equal(configuration, undefined);
    assert.equal(refusal?.rule, 'lead_too_long');
    assert.match(refusal!.reason, /209 characters and has no clause boundary/);
  });

  it('is shortened by a configured language model, whose answer is checked like any draft', async (t) => {
    const model = await modelAnswering(SHORT, t);
    const { configuration, refusal } = await draftFor(model.env);
    assert.equal(refusal, undefined);
    assert.deepEqual([configuration?.after, configuration?.writer], [SHORT, 'llm:test']);
    const shortening = model.asked.find((m) => m.includes(LEAD));
    assert.match(shortening ?? '', /Shorten the draft to at most 160 characters/);
  });
});
