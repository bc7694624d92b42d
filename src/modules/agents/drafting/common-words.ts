import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * English words a dictionary writes in lower case (Hunspell's en_US, the dictionary-en package the alt-text writer spells with):
 * "dentistry", "crown", "general". A word it lists only with a capital is a name ("Sarah", "Dr"), and one it does not list at all
 * a brand or a name of the site's own ("Invisalign", "BrightSmile", "Rebrand"): neither is common. Read on first use, synchronously
 * (about 550 KB, 49,000 entries, 90 ms once): only a composed description in Title Case asks.
 */
/** Each lower-case entry and its affix flags (en_US: "S" a plural, "M" a possessive). */
let lower: Map<string, string> | undefined;

function load() {
  // (The package exports its entry only: the file beside it.)
  const dic = fs.readFileSync(fileURLToPath(new URL('index.dic', import.meta.resolve('dictionary-en'))), 'utf8');
  lower = new Map();
  // (A line is "word/FLAGS"; the first line is the entry count.)
  for (const line of dic.split('\n').slice(1)) {
    const [word = '', flags = ''] = line.trim().split('/', 2);
    if (/^\p{Ll}/u.test(word)) lower.set(word, flags);
  }
}

/**
 * The forms a dictionary lists a word under, each with the flag its ending needs: itself; a plural's stem, which must take "S"
 * ("crowns" -> crown/S, not "James" -> jam, "Angeles" -> angel); a possessive's ("children's").
 */
const forms = (word: string): Array<[string, string]> => {
  const w = word.toLowerCase().replace(/['’]s$/u, '');
  // (As the S rule makes them: "-es" only after s, x, z, ch or sh, "boxes"; "-ies" after a consonant, "batteries".)
  const es = /(?:s|x|z|ch|sh)es$/u.test(w) ? w.slice(0, -2) : w;
  const ies = /[^aeiou]ies$/u.test(w) ? `${w.slice(0, -3)}y` : w;
  return [[w, ''], [w.replace(/(?<!s)s$/u, ''), 'S'], [es, 'S'], [ies, 'S']];
};

/** Plurals a dictionary's affix rules make, which its word list does not hold. */
const IRREGULAR_PLURALS = new Set(['teeth', 'feet', 'children', 'men', 'women', 'people', 'mice', 'geese', 'data', 'criteria']);

/** Whether an English word is a common word, written in lower case inside a sentence ("Dentistry", "Teeth" yes; "Sarah", "Invisalign" no). */
export function isCommonWord(word: string): boolean {
  if (!lower) load();
  return forms(word).some(([form, flag]) => IRREGULAR_PLURALS.has(form) || (lower!.has(form) && (flag === '' || lower!.get(form)!.includes(flag))));
}
