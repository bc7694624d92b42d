// nspell (Hunspell-compatible spell checking) ships no types; this is the part the alt-text writer uses.
declare module 'nspell' {
  interface NSpell {
    correct(word: string): boolean;
    /** Adds a .dic file's words (its first line, the count, is skipped). */
    dictionary(dic: string): NSpell;
    /** The affix file's compound rules: their source until a dictionary is added, then built from it. */
    compoundRules: unknown[];
  }
  export default function nspell(dictionary: { aff: Uint8Array; dic?: Uint8Array }): NSpell;
}
