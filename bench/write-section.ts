import fs from 'node:fs';

/**
 * Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` in BENCHMARKS.md
 * with a run's results, adding the section under `heading` the first time.
 */
export function writeSection(name: string, heading: string, text: string, file = 'BENCHMARKS.md') {
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  let doc = fs.readFileSync(file, 'utf8');
  if (!doc.includes(start)) doc += `\n## ${heading}\n\n${start}\n${end}\n`;
  fs.writeFileSync(file, `${doc.slice(0, doc.indexOf(start) + start.length)}\n${text}\n${doc.slice(doc.indexOf(end))}`);
}
