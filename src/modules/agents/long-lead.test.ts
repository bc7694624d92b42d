import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { call, signUp, startTestApp, type TestContext } from '../../../test/helpers/app.ts';
import { page, startFixtureSite } from '../../../test/helpers/fixture-site.ts';
import { until } from '../../../test/helpers/wait.ts';
import { saysOnlyWhat } from './planners/meta.ts';

// One sentence of 209 characters with no clause an editor's cut could drop: the extractive writer refuses it for its length.
const LEAD = 'Walt Disney Co. executive Kevin Mayer said overwhelming demand and a computer-coding glitch led to widespread problems when the Burbank entertainment giant launched its streaming service for eager subscribers.';
const SHORT = 'Disney executive Kevin Mayer said overwhelming demand and a coding glitch caused the widespread problems at the launch of its streaming service.';
const BODY = `<h1>Disney blames demand and a glitch for its launch problems</h1><p>${LEAD}</p><p>Some consumers who sought help on launch day reported telephone wait times that exceeded two hours.</p>`;

/** Audits a one-page site (the page has no description) and gives the agent's description proposal or refusal for it. */
async function draftFor(env: Record<string, string>) {
  const site = await startFixtureSite({ '/': { body: page({ title: 'Disney blames demand and a glitch for its launch problems', description: '', body: BODY }) } });
  const ctx: TestContext = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'true', ...env });
  try {
    const user = await signUp(ctx);
    const siteId = (await call(ctx, { method: 'POST', url: '/api/v1/sites', token: user.accessToken, payload: { name: 'News', domain: site.host } })).data.id;
    await call(ctx, { method: 'POST', url: '/api/v1/audits', token: user.accessToken, payload: { site_id: siteId } });
    await until(async () => (await call(ctx, { method: 'GET', url: `/api/v1/audits/site/${siteId}/latest`, token: user.accessToken })).data, (a) => a?.agent === 'finished', 'the agent run', 60_000);
    const task = await ctx.database.db.selectFrom('tasks').select(['configuration']).where('site_id', '=', siteId).where('type', '=', 'fix_missing_meta_description').executeTakeFirst();
    const refusal = await ctx.database.db.selectFrom('task_rejections').innerJoin('audits', 'audits.id', 'task_rejections.audit_id').select(['task_rejections.reason', 'task_rejections.rule'])
      .where('audits.site_id', '=', siteId).where('task_rejections.type', '=', 'fix_missing_meta_description').executeTakeFirst();
    return { configuration: task?.configuration as { after: string; writer: string } | undefined, refusal };
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

describe('a lead refused only for its length', () => {
  it('is refused, naming the rule, when no language model is configured', async () => {
    const { configuration, refusal } = await draftFor({});
    assert.equal(configuration, undefined);
    assert.equal(refusal?.rule, 'lead_too_long');
    assert.match(refusal!.reason, /209 characters and has no clause boundary/);
  });

  it('is shortened by a configured language model, whose answer is checked like any draft', async (t) => {
    const asked: string[] = [];
    const llm = http.createServer(async (request, response) => {
      let raw = '';
      for await (const chunk of request) raw += chunk;
      asked.push(JSON.parse(raw).messages[1].content);
      response.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 'c', object: 'chat.completion', model: 'test', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: SHORT } }] }));
    });
    await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => llm.close(resolve)));
    const { configuration, refusal } = await draftFor({ LLM_BASE_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`, LLM_MODEL: 'test' });
    assert.equal(refusal, undefined);
    assert.deepEqual([configuration?.after, configuration?.writer], [SHORT, 'llm:test']);
    const shortening = asked.find((m) => m.includes(LEAD));
    assert.match(shortening ?? '', /Shorten the draft to at most 160 characters/);
  });
});
