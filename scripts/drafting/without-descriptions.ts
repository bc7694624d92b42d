/**
 * A page without its editors' descriptions (<meta name="description">, og:description,
 * twitter:description, and the "description" and "abstract" of its JSON-LD, each block parsed and
 * written back so that it stays valid), as a site that never wrote them would be audited. Used by
 * bench/agents/drafts.ts and build-examples.ts. `keep`: the meta names to leave in place.
 */
export function withoutDescriptions(html: string, keep: ReadonlySet<string> = new Set()): string {
  const metaless = html.replace(/<meta\b[^>]*\b(name|property)\s*=\s*["']?(description|og:description|twitter:description)["']?[^>]*>/gi,
    (tag, _kind, name: string) => (keep.has(name.toLowerCase()) ? tag : ''));
  if (keep.has('json_ld')) return metaless;
  return metaless.replace(/(<script\b[^>]*application\/ld\+json[^>]*>)([\s\S]*?)(<\/script>)/gi, (whole, open: string, body: string, close: string) => {
    try {
      return `${open}${JSON.stringify(stripped(JSON.parse(body)))}${close}`;
    } catch {
      return whole; // Invalid JSON-LD stays as the page has it.
    }
  });
}

function stripped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripped);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'description' && key !== 'abstract').map(([key, v]) => [key, stripped(v)]));
}
