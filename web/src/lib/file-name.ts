/** The file name a Content-Disposition header gives (RFC 6266: filename* first), without any folder in it. */
export function dispositionFileName(header: string | null, fallback = 'export.csv'): string {
  let name: string | undefined;
  const encoded = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header ?? '');
  if (encoded) {
    try { name = decodeURIComponent(encoded[1]!.trim()); } catch { /* a malformed one: the plain name below */ }
  }
  name ??= /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header ?? '')?.slice(1).find((n) => n !== undefined)?.trim();
  name = name?.replace(/[/\\]/g, '-').replace(/^\.+/, '');
  return name || fallback;
}
