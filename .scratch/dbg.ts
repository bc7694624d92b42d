import { loadExamples } from '../src/modules/agents/drafting/examples/score.ts';
import { writeMetaDescription } from '../src/modules/agents/drafting/description.ts';
const want = process.argv.slice(2);
for (const ex of loadExamples()) {
  if (!want.some((w) => ex.id.includes(w) || ex.url.includes(w))) continue;
  const r = writeMetaDescription(ex.content, new Set());
  console.log('##', ex.id, ex.url, ex.expect, JSON.stringify(ex.must), '\n  h1:', ex.content.h1, '\n  ->', JSON.stringify(r).slice(0, 600));
}
