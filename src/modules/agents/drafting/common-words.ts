import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * English words a dictionary writes in lower case (Hunspell's en_US, the dictionary-en package the alt-text writer spells with):
 * "dentistry", "crown", "general". A word it lists only with a capital is a name ("Sarah", "Dr"), and one it does not list at all
 * a brand or a name of the site's own ("Invisalign", "BrightSmile", "Rebrand"): neither is common. Read on first use, synchronously
 * (about 550 KB, 49,000 entries, 90 ms once): only a composed description in Title Case asks.
 */
let lower: Set<string> | undefined;

function load() {
  // (The package exports its entry only: the file beside it.)
  const dic = fs.readFileSync(fileURLToPath(new URL('index.dic', import.meta.resolve('dictionary-en'))), 'utf8');
  lower = new Set();
  // (A line is "word/FLAGS"; the first line is the entry count.)
  for (const line of dic.split('\n').slice(1)) {
    const word = line.split('/', 1)[0]!.trim();
    if (word === '') continue;
    if (/^\p{Ll}/u.test(word)) lower.add(word);
  }
}

/** The forms a dictionary lists a word under: itself, without a plural's or a possessive's ending ("crowns", "children's"). */
const stems = (word: string) => {
  const w = word.toLowerCase().replace(/['’]s$/u, '');
  return [w, w.replace(/s$/u, ''), w.replace(/es$/u, ''), w.replace(/ies$/u, 'y')];
};

/** Plurals a dictionary's affix rules make, which its word list does not hold. */
const IRREGULAR_PLURALS = new Set(['teeth', 'feet', 'children', 'men', 'women', 'people', 'mice', 'geese', 'data', 'criteria']);

/** Whether an English word is a common word, written in lower case inside a sentence ("Dentistry", "Teeth" yes; "Sarah", "Invisalign" no). */
export function isCommonWord(word: string): boolean {
  if (!lower) load();
  return stems(word).some((f) => lower!.has(f) || IRREGULAR_PLURALS.has(f));
}
