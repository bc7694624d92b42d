import { loadExamples } from '../src/modules/agents/drafting/examples/score.ts';
import { proseBySection, pageWordsOf } from '../src/modules/agents/description-writer.ts';
import { readSentences, canOpen, openingRule } from '../src/modules/agents/drafting/sentence-rules.ts';
import { withoutLeadPrefix } from '../src/modules/agents/drafting/lead-prefixes.ts';
const want = process.argv.slice(2);
for (const ex of loadExamples()) {
  if (!want.some((w) => ex.id.includes(w) || ex.url.includes(w))) continue;
  const c = ex.content;
  console.log('##', ex.id, 'article', c.article, 'lang', c.lang, 'h1:', c.h1, '| order', (c.order ?? '').slice(0, 40));
  const secs = proseBySection(c);
  secs.slice(0, 2).forEach((blocks, s) => blocks.slice(0, 6).forEach((b, i) => {
    const t = withoutLeadPrefix(b, c.article === true).text;
    for (const x of readSentences(t, c.lang, pageWordsOf(c), c.article === true)) console.log(`  s${s} b${i} ${x.usable ? 'U' : '-'} ${x.rule ?? ''} open=${openingRule(x.text, true, c.lang) ?? 'ok'} | ${x.text.slice(0, 150)}`);
  }));
}
