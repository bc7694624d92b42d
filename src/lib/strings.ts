/**
 * A flat copy of a string that shares no memory with the string it came from. V8 keeps a
 * string sliced out of a larger one (a parser chunk: a whole page of HTML) tied to it;
 * anything kept for long must be detached first.
 */
export const detach = (value: string) => Buffer.from(value, 'utf8').toString('utf8');

/**
 * Text as a reader sees it: CMSs turn ' and " into typographic quotes and -- into dashes
 * when they render (WordPress's wptexturize), which is not a different title.
 */
export const sameText = (a: string | null, b: string | null) => {
  const plain = (text: string | null) => text?.replace(/[‘’‛′]/g, "'").replace(/[“”„″]/g, '"').replace(/[–—]/g, '-').replace(/…/g, '...').replace(/\s+/g, ' ').trim() ?? null;
  return plain(a) === plain(b);
};

/** Text safe inside HTML text and double-quoted attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
