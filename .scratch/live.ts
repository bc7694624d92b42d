import { raw, ids } from '../bench/agents/articles-as-site.ts';
import { readPageContent } from '../src/modules/agents/page-content.ts';
import { writeMetaDescription } from '../src/modules/agents/drafting/description.ts';
import { withoutDescriptions } from '../scripts/drafting/without-descriptions.ts';
import { proseBySection, pageWordsOf } from '../src/modules/agents/description-writer.ts';
import { readSentences, openingRule } from '../src/modules/agents/drafting/sentence-rules.ts';
import { withoutLeadPrefix } from '../src/modules/agents/drafting/lead-prefixes.ts';
const want = process.argv.slice(3);
for (const id of ids.filter((i) => want.some((w) => i.startsWith(w)))) {
  const c = readPageContent(withoutDescriptions(raw(id), new Set()), `https://x.example/a/${id}/`);
  console.log('##', id.slice(0, 8), 'article', c.article, 'lang', c.lang, 'h1:', c.h1, '| order', (c.order ?? '').slice(0, 30), '\n  ->', JSON.stringify(writeMetaDescription(c, new Set())).slice(0, 400));
  if (process.env.TRACE) proseBySection(c).slice(0, 2).forEach((blocks, s) => blocks.slice(0, 5).forEach((b, i) => {
    for (const x of readSentences(withoutLeadPrefix(b, c.article === true).text, c.lang, pageWordsOf(c), c.article === true)) console.log(`  s${s} b${i} ${x.usable ? 'U' : '-'} ${x.rule ?? ''} open=${openingRule(x.text, true, c.lang) ?? 'ok'} | ${x.text.slice(0, 140)}`);
  }));
}
