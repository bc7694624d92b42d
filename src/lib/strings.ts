/**
 * A flat copy of a string that shares no memory with the string it came from. V8 keeps a
 * string sliced out of a larger one (a parser chunk: a whole page of HTML) tied to it;
 * anything kept for long must be detached first.
 */
export const detach = (value: string) => Buffer.from(value, 'utf8').toString('utf8');

/** White space other than a single space between words: what collapsing white space would change. */
const UNCOLLAPSED = /[^\S ]| {2}/;
/**
 * White space collapsed to single spaces, and trimmed (`text.replace(/\s+/g, ' ').trim()`): the
 * crawl asks it of every link, heading and kept block of every page, whose text mostly has no
 * white space but single spaces already, so it looks first (no regular-expression replacement and
 * no copy for those).
 */
export const collapseWhiteSpace = (text: string) => (UNCOLLAPSED.test(text) ? text.replace(/\s+/g, ' ') : text).trim();

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

/** Characters a search result shows twice as wide as a Latin letter (East Asian wide and full-width forms). */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303F\uFF01-\uFF60\uFFE0-\uFFE6]/gu;

/**
 * A text's length as search results measure it, in Latin characters: a Chinese, Japanese or
 * Korean character takes the room of two, so 80 of them fill a 160-character description.
 */
export const displayWidth = (text: string) => [...text].length + (text.match(WIDE)?.length ?? 0);

/** Whether a text says a name as words of their own: "through KLOOK" says "KLOOK", "KLOOKS" and "myKLOOK" do not. */
export function saysName(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    if (!/[\p{L}\p{N}]/u.test(text[at - 1] ?? '') && !/[\p{L}\p{N}]/u.test(text[at + name.length] ?? '')) return true;
  }
  return false;
}
