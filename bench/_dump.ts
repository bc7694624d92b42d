import { loadExamples } from '../src/modules/agents/drafting/examples/score.ts';
import { writeMetaDescription } from '../src/modules/agents/drafting/description.ts';
const out: Record<string, string> = {};
for (const ex of loadExamples()) { const r = writeMetaDescription(ex.content, new Set(), ex.url) as any; out[ex.id] = r.text ?? `REFUSED ${r.rule}`; }
console.log(JSON.stringify(out));
