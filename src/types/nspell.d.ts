// nspell (Hunspell-compatible spell checking) ships no types; this is the part the alt-text writer uses.
declare module 'nspell' {
  interface NSpell {
    correct(word: string): boolean;
  }
  export default function nspell(dictionary: { aff: Uint8Array; dic: Uint8Array }): NSpell;
}
