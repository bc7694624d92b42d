import { setImmediate as nextTurn } from 'node:timers/promises';
import nspell from 'nspell';
import { cutClean } from './writers.ts';
import { sentencesOf } from './sentences.ts';
import type { PageContent } from './page-content.ts';

/**
 * Alt text drafted from an image's file name, only where the name is words a reader would
 * use. A name is read word by word: a word counts when the page's own text uses it (names,
 * and words of any language: "Mahomes", "parade") or, on an English page, when an English
 * spelling dictionary knows it (Hunspell's, through nspell). Hashes, CDN ids, dates, camera
 * numbering and run-together names ("bidenjoe_111719getty") are in neither, so they are
 * never described: no list of what a hash looks like is needed. A logo, an icon, a banner
 * or a spacer is never described either: it is decorative (alt="") or names where it leads.
 */

/** What a file-name word is when it says nothing about the picture (sizes, numbering, upload folders). */
const NOISE_WORD = /^(img|image|images|dsc|dscn|dscf|pic|picture|photo|foto|screenshot|screen|shot|scaled|copy|final|edited|untitled|wp|uploads?|thumb(nail)?|featured|hero|cover|crop(ped)?|resized|retina|orig(inal)?|fullsize|e\d+|v\d+|\d+x\d+|\d+)$/i;

/**
 * Words of a file name that make the image a logo, an icon, a banner, a spacer or a tracking
 * pixel: decorative (W3C: alt="") or a link whose alt names its destination, never a description.
 */
const DECORATIVE_WORDS = new Set([
  // What the image is
  'logo', 'logos', 'lockup', 'icon', 'icons', 'favicon', 'banner', 'banners', 'sprite', 'sprites', 'spacer', 'pixel', 'blank', 'transparent',
  'avatar', 'badge', 'button', 'btn', 'arrow', 'caret', 'chevron', 'placeholder', 'loader', 'loading', 'spinner', 'bg', 'background',
  'divider', 'separator', 'overlay', 'corner',
  // Where a site's chrome puts it (the 181 publishers' pages: "social-twitter", "mail-send", "promo-rail", "feed-white")
  'header', 'footer', 'sidebar', 'nav', 'menu', 'widget', 'promo', 'ad', 'ads', 'advert', 'sponsor', 'social', 'share', 'twitter',
  'facebook', 'linkedin', 'instagram', 'pinterest', 'whatsapp', 'youtube', 'mail', 'email', 'print', 'rss', 'feed', 'subscribe', 'newsletter',
  'play', 'player',
]);

/** Below two words a reader would use, a file name describes nothing. */
const MIN_WORDS = 2;
/** Words a page uses are known; one unknown word (a photo agency's tag, "usatsi") is dropped, more make the name unreadable. */
const MAX_UNKNOWN = 1;
const MAX_LENGTH = 125;

export type AltDraft = { alt: string } | { refused: string; decorative?: true };

/** What the drafting asks of a spelling dictionary. */
export interface Speller { correct(word: string): boolean }

/** Lines of the dictionary read per turn of the event loop: about 10 ms of work each. */
const DICTIONARY_LINES_PER_TURN = 2000;
let english: Promise<Speller> | undefined;

/**
 * Hunspell's English dictionary (dictionary-en) as a speller, read on first use and built a
 * slice at a time: built at once it holds the event loop for about 0.2 s, which the API and
 * /live would wait through on a process that works its own jobs. Its files are read only
 * then (not at start-up), once per process; about 20 MB.
 */
export function englishSpeller(): Promise<Speller> {
  english ??= (async () => {
    const { default: dictionary } = await import('dictionary-en');
    const speller = nspell({ aff: dictionary.aff });
    const lines = Buffer.from(dictionary.dic).toString('utf8').split('\n').slice(1);
    // nspell rebuilds its compound rules from their source on every dictionary it adds: each slice starts from that source.
    const compoundRules = [...speller.compoundRules];
    for (let i = 0; i < lines.length; i += DICTIONARY_LINES_PER_TURN) {
      speller.compoundRules = [...compoundRules];
      // A .dic file's first line is its word count, which nspell skips.
      speller.dictionary(`\n${lines.slice(i, i + DICTIONARY_LINES_PER_TURN).join('\n')}`);
      await nextTurn();
    }
    return speller;
  })();
  return english;
}

/** Whether a page is in English (or says nothing of its language): the English dictionary applies to it. */
export const isEnglish = (lang: string | null) => lang === null || lang.toLowerCase().split(/[-_]/)[0] === 'en';

/** The words of a text: runs of letters and digits, in any script. */
export const wordsIn = (text: string): string[] => text.match(/[\p{L}\p{N}]+/gu) ?? [];

/** The words a page's own text uses, lower-cased, each with the spelling the page gives it most ("iPhone", "NFL"). */
export function pageVocabulary(content: Pick<PageContent, 'title' | 'h1' | 'paragraphs' | 'headings'>): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  const texts = [content.title, content.h1, ...content.paragraphs, ...content.headings.map((h) => h.text)];
  for (const text of texts) {
    for (const word of wordsIn(text)) {
      const key = word.toLowerCase();
      const forms = counts.get(key) ?? new Map<string, number>();
      forms.set(word, (forms.get(word) ?? 0) + 1);
      counts.set(key, forms);
    }
  }
  return new Map([...counts].map(([key, forms]) => [key, [...forms].sort((a, b) => b[1] - a[1])[0]![0]]));
}

/** The words of an image's file name ("red-rose-bush-1024x768.jpg" -> red, rose, bush), noise left out. */
function fileNameWords(src: string): string[] | undefined {
  let name: string;
  try {
    name = decodeURIComponent(new URL(src).pathname.split('/').pop() ?? '');
  } catch {
    return undefined;
  }
  const number = /^\d+$/;
  const words = name
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_\-.+,]+/)
    .filter((word) => word && (number.test(word) || !NOISE_WORD.test(word)));
  // A number stays when a word follows it ("iphone-11-pro", "16-inch"): one at the end is a size or a count ("-28", "-170").
  return words.filter((word, i) => !number.test(word) || (/^[1-9]\d{0,3}$/.test(word) && i < words.length - 1 && !number.test(words[i + 1]!)));
}

/**
 * Alt text for an image from its file name and the page it is on, or why none is drafted.
 * `speller`: the English dictionary, given for an English page (englishSpeller, isEnglish).
 */
export function draftAltText(src: string, page: { vocabulary: ReadonlyMap<string, string>; speller?: Speller | undefined }): AltDraft {
  const words = fileNameWords(src);
  if (!words || words.length === 0) return { refused: 'its file name has no words' };
  if (words.some((w) => DECORATIVE_WORDS.has(w.toLowerCase()))) {
    return { refused: 'a logo, icon, banner or spacer by its file name: give it alt="" if it only decorates, or the name of where it leads if it is a link', decorative: true };
  }
  const known: string[] = [];
  const unknown: string[] = [];
  for (const word of words) {
    const onPage = page.vocabulary.get(word.toLowerCase());
    if (onPage) known.push(onPage);
    else if (/^\d+$/.test(word)) known.push(word); // a number a word follows (fileNameWords): "iPhone 11".
    else if (/^\p{L}{3,}$/u.test(word) && page.speller?.correct(word.toLowerCase())) known.push(word.toLowerCase());
    else unknown.push(word);
  }
  const readable = known.filter((w) => /\p{L}{3,}/u.test(w));
  if (readable.length < MIN_WORDS || unknown.length > MAX_UNKNOWN) {
    return { refused: `its file name is not words a reader would use (${words.join(' ')})` };
  }
  const joined = known.join(' ');
  const text = joined.length > MAX_LENGTH ? cutClean(joined, MAX_LENGTH) : joined;
  // A sentence's capital, unless the first word is spelled with its own ("iPhone", "eBay").
  return { alt: /^\p{Ll}+\p{Lu}/u.test(text) ? text : text.charAt(0).toUpperCase() + text.slice(1) };
}

/**
 * Credits and labels a caption carries that say nothing about the picture (named data: an
 * example each). Matched at the caption's end, or as its label at the start.
 */
export const CAPTION_CREDITS: Array<{ pattern: RegExp; example: string; counterExample: string }> = [
  // A credit in brackets at the end: "(Photo by X)", "[Image: X]", "(AP Photo/X)", "(Getty Images)", "(AP)".
  {
    pattern: /\s*[([]\s*(?:(?:photo(?:graph)?s?|image|picture|illustration|credit|source|foto|bild)\b[^)\]]*|ap(?:\s+photo)?\b[^)\]]*|getty(?:\s+images)?|reuters|afp|epa|pa|dpa|ansa|xinhua|shutterstock|istock)\s*[)\]]\s*$/iu,
    example: 'Fans at the parade. (AP Photo/Charlie Riedel)', counterExample: 'Fans at the Tampa Bay parade (2019)',
  },
  // A credit after the caption's last sentence or a separator, or the whole caption: ". Photo: X", " | Credit: X", "Photo by X".
  {
    pattern: /(?:^|[.!?]\s+|\s+[-–—|/]\s*)(?:photo(?:graph)?s?|image|picture|illustration|credit|source|foto|bild)\s*(?:by\b|:)[^.!?]*$/iu,
    example: 'A crowd at the gate. Photo: Jane Doe/Reuters', counterExample: 'The image by Monet, at the Louvre',
  },
  // An agency named after the caption's last sentence or a separator: ". Getty Images", " / AP Photo".
  {
    pattern: /(?:[.!?]\s+|\s+[-–—|/]\s*)(?:getty images|ap photo|reuters|afp|shutterstock|istock)\b[^.!?]*$/iu,
    example: 'Police at the scene. Reuters/John Smith', counterExample: 'Reuters reporters wait outside the court',
  },
  { pattern: /\s*[([]?\s*©[^)\]]*[)\]]?\s*$/u, example: 'The harbour at dawn (© City Archive)', counterExample: 'The harbour at dawn' },
  // A figure's number, or a label a screen reader's visually hidden text puts before the caption (the BBC's "Media caption").
  {
    pattern: /^(?:(?:[Ff]ig(?:ure)?\.?|[Aa]bb\.?|[Ii]mage|[Pp]hoto)\s*\d+[a-z]?\s*[:.–—-]\s*|(?:[Mm]edia caption|[Ii]mage caption)\s*(?=\p{Lu}|\d)|(?:[Cc]aption|[Bb]ildunterschrift)\s*:\s*)/u,
    example: 'Media captionWho is Julian Assange?', counterExample: 'Caption contests at the county fair',
  },
];

/**
 * Alt text from the caption of the image's figure, where its file name says nothing: the
 * caption's first sentence, its credit and figure number dropped, at most 125 characters
 * cut where a phrase ends. Refused when what is left is not two words.
 */
export function altFromCaption(caption: string, lang: string | null = null): AltDraft {
  let text = caption.replace(/\s+/g, ' ').trim();
  for (let changed = true; changed;) {
    const before = text;
    for (const credit of CAPTION_CREDITS) text = text.replace(credit.pattern, '').trim();
    changed = text !== before;
  }
  // The drafting's own sentence segmentation (abbreviations, initials and "U.S." do not end a sentence).
  const first = sentencesOf(text, lang)[0] ?? text;
  const sentence = first.replace(/[.\s]+$/u, '');
  if ((sentence.match(/\p{L}{3,}/gu) ?? []).length < MIN_WORDS) return { refused: `its caption says too little ("${caption.slice(0, 60)}")` };
  const alt = sentence.length > MAX_LENGTH ? cutClean(sentence, MAX_LENGTH) : sentence;
  return { alt: alt.charAt(0).toUpperCase() + alt.slice(1) };
}
