// node bench/agents/articles-site.ts: the 181 news, blog and magazine pages of the shared
// article-extraction benchmark (../shared/benchmarks/article-extraction, 181 publishers)
// served as one site (each page at /a/<id>/, an index page linking them all, each page's
// canonical link pointed at its own address here), audited through the service, and the
// strategy agent's side tasks printed for reading: every alt text drafted or refused, and
// every page with several h1s with the one kept beside the page's headline (its og:title or
// <title>). DUMP=file.json writes them all, with every proposal and refusal.
import fs from 'node:fs';
import { pagesOf } from '../../src/modules/task-types/index.ts';
import { auditArticles, idOf, ids, raw as html } from './articles-as-site.ts';

/** The page's headline as its publisher gives it: og:title, else <title>. */
function headline(id: string): string {
  const page = html(id);
  const og = /<meta\b[^>]*property=["']og:title["'][^>]*content=["']([^"']*)["']/i.exec(page) ?? /<meta\b[^>]*content=["']([^"']*)["'][^>]*property=["']og:title["']/i.exec(page);
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(page);
  return (og?.[1] ?? title?.[1] ?? '').replace(/&amp;/g, '&').replace(/&#39;|&#x27;/g, "'").replace(/&quot;/g, '"').trim();
}

// Its own address is its canonical here: the publisher's would make the page "not indexable" and hide its side tasks.
const { tasks, rejections, close } = await auditArticles((id, origin) =>
  html(id).replace(/<link\b[^>]*\brel=["']?canonical["']?[^>]*>/gi, `<link rel="canonical" href="${origin}/a/${id}/">`));

const alts = tasks.filter((t) => t.type === 'add_image_alt_text').flatMap((t) => pagesOf(t).flatMap((p) => {
  const c = p.configuration as { url: string; images: Array<{ src: string; alt: string }> };
  return c.images.map((image) => ({ page: idOf(c.url), priority: t.priority, src: image.src, alt: image.alt }));
}));
const h1s = tasks.filter((t) => t.type === 'fix_h1').flatMap((t) => pagesOf(t)).map((p) => {
  const c = p.configuration as { url: string; issue: string; before: unknown; after: string };
  return { page: idOf(c.url), issue: c.issue, h1s: c.before, kept: c.after, headline: headline(idOf(c.url)) };
}).filter((h) => h.issue === 'multiple');
const altRefusals = rejections.filter((r) => r.type === 'add_image_alt_text');

console.log(JSON.stringify({
  pages: ids.length,
  alt_tasks: tasks.filter((t) => t.type === 'add_image_alt_text').length,
  alt_drafts: alts.length,
  alt_pages_refused: altRefusals.length,
  alt_high_priority: alts.filter((a) => a.priority === 'high').length,
  several_h1_pages: h1s.length,
}, null, 2));
for (const a of alts) console.log(`ALT\t${a.priority}\t${a.alt}\t${a.src}`);
for (const h of h1s) console.log(`H1\tkept: ${h.kept}\theadline: ${h.headline}\tall: ${JSON.stringify(h.h1s)}`);
if (process.env.DUMP) {
  const proposals = tasks.map((t) => ({ type: t.type, target: idOf(t.target), priority: t.priority, configuration: t.configuration }));
  fs.writeFileSync(process.env.DUMP, JSON.stringify({ alts, altRefusals, h1s, proposals, refusals: rejections.map((r) => ({ ...r, target: idOf(r.target) })) }, null, 2));
}
await close();
process.exit(0);
