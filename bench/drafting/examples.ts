// npm run score:drafting: the drafting example set (src/modules/agents/drafting/examples/) scored
// as its test scores it, by kind of site, with every failing row (FAILURES=0 to leave them out).
import { loadExamples, scoreExamples } from '../../src/modules/agents/drafting/examples/score.ts';

const score = scoreExamples(loadExamples());
const { outcomes, ...summary } = score;
console.log(JSON.stringify(summary, null, 2));
if (process.env.FAILURES !== '0') {
  for (const o of outcomes.filter((x) => x.failure !== '')) {
    console.log(`- ${o.example.id} [${o.example.kind}, ${o.example.expect}] ${o.failure}${o.draft ? `\n    draft: ${o.draft}` : ''}${o.example.note ? `\n    note: ${o.example.note}` : ''}`);
  }
}
