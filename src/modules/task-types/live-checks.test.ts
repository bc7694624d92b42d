import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameText } from '../../lib/strings.ts';
import { liveChecks } from './index.ts';

describe('live checks', () => {
  it('take a title as equal when the CMS only made its quotes and dashes typographic', async () => {
    assert.ok(sameText("Kent's roses - a grower's guide", 'Kent’s roses – a grower’s guide'));
    assert.ok(!sameText('Kent roses', 'Kent’s roses'));
    const page = { status: 200, headers: {}, body: '<title>Kent&#8217;s roses &#8211; Garden Shop</title>' };
    const [check] = await liveChecks({ type: 'fix_title_tag', target: 'https://shop.example/', configuration: { after: "Kent's roses - Garden Shop" } }, async () => page);
    assert.equal(check!.passed, true);
    const [other] = await liveChecks({ type: 'fix_title_tag', target: 'https://shop.example/', configuration: { after: 'Tulips - Garden Shop' } }, async () => page);
    assert.equal(other!.passed, false);
  });
});
