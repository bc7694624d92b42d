// A WordPress-compatible site of N pages for `npm run bench:agents`, in its own process:
// every page lacks a meta description (a registered, empty SEO field) and carries enough
// unique text to draft one from. Prints its origin on the first line of stdout.
import { startWordPressServer } from '../../src/modules/demo/wordpress-stand-in.ts';

const pages = Number(process.argv[2] ?? 2000);
const topics = ['roses', 'tulips', 'hedges', 'lawns', 'ponds', 'herbs', 'apples', 'compost', 'ferns', 'bulbs'];
const items = Array.from({ length: pages }, (_, i) => {
  const topic = `${topics[i % topics.length]} ${i}`;
  const paragraph = (n: number) => `Guide ${i}, part ${n}: how we grow ${topic} on our four acres in Kent, what they need through the year and the mistakes to avoid.`;
  return {
    type: 'page' as const,
    slug: `guide-${i}`,
    title: `Growing ${topic}: the complete guide`,
    content: Array.from({ length: 12 }, (_, n) => `<p>${paragraph(n)}</p>`).join('\n'),
  };
});
const server = await startWordPressServer({ items });
console.log(server.origin);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
