/**
 * Sentences of a text block, in its language: Intl.Segmenter (so "Version 2.4" is not two
 * sentences), mended where real pages showed it wrong: "(and sometimes even rare!)" does not
 * end a sentence, "9.2.X" is one token, "ALTER TABLE ... DISABLE" is one clause, and a
 * sentence may start with a lower-case name ("... the file. pg_dump does not block ..."), and
 * neither "e.g." nor a macro's name ("the println! macro") ends one.
 */

import { createRequire } from 'node:module';

/** Segmenters by language: building one costs far more than using it. */
const segmenters = new Map<string, Intl.Segmenter>();
function segmenterFor(lang: string | null): Intl.Segmenter {
  const key = lang ?? 'en';
  let segmenter = segmenters.get(key);
  if (!segmenter) {
    try {
      segmenter = new Intl.Segmenter(key, { granularity: 'sentence' });
    } catch {
      segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    }
    if (segmenters.size < 100) segmenters.set(key, segmenter);
  }
  return segmenter;
}

/**
 * Abbreviations after which a sentence does not end, by language: the Unicode CLDR's sentence-break
 * suppressions (the list ICU itself applies: "Mr.", "Feb.", "U.S.", "z.B.", "prof."), with what
 * news copy uses that the list lacks (titles before a name, US states as AP writes them, company
 * forms). Intl.Segmenter does not apply CLDR's list.
 */
const OWN_ABBREVIATIONS: Record<string, string[]> = {
  en: [
    'Gov.', 'Sen.', 'Rep.', 'Dr.', 'Mr.', 'Mrs.', 'Ms.', 'St.', 'Jr.', 'Sr.', 'Gen.', 'Col.', 'Lt.', 'Sgt.', 'Capt.', 'Cmdr.', 'Adm.', 'Rev.', 'Hon.', 'Pres.', 'Supt.', 'Atty.', 'Insp.',
    'Inc.', 'Co.', 'Corp.', 'Ltd.', 'Bros.', 'Mt.', 'Ft.', 'Ave.', 'Blvd.', 'No.', 'Nos.', 'Vol.', 'pp.', 'approx.',
    'Ala.', 'Ariz.', 'Ark.', 'Calif.', 'Colo.', 'Conn.', 'Del.', 'Fla.', 'Ga.', 'Ill.', 'Ind.', 'Kan.', 'Ky.', 'La.', 'Md.', 'Mass.', 'Mich.', 'Minn.', 'Miss.', 'Mo.', 'Mont.',
    'Neb.', 'Nev.', 'N.H.', 'N.J.', 'N.M.', 'N.Y.', 'N.C.', 'N.D.', 'Okla.', 'Ore.', 'Pa.', 'R.I.', 'S.C.', 'S.D.', 'Tenn.', 'Va.', 'Vt.', 'Wash.', 'Wis.', 'W.Va.', 'Wyo.',
    'Jan.', 'Feb.', 'Mar.', 'Apr.', 'Aug.', 'Sep.', 'Sept.', 'Oct.', 'Nov.', 'Dec.',
  ],
  de: ['Prof.', 'Dr.', 'Hr.', 'Fr.', 'bzw.', 'ca.', 'vgl.', 'usw.', 'Nr.', 'Str.', 'z.B.', 'd.h.', 'u.a.', 's.o.', 'Mio.', 'Mrd.'],
  fr: ['M.', 'Mme.', 'Mlle.', 'Dr.', 'St.', 'av.', 'env.', 'p.ex.', 'cf.', 'etc.'],
  es: ['Sr.', 'Sra.', 'Srta.', 'Dr.', 'Dra.', 'Lic.', 'Ing.', 'pág.', 'núm.', 'aprox.', 'etc.'],
  it: ['Sig.', 'Sig.ra', 'Dott.', 'Prof.', 'Ing.', 'Avv.', 'ecc.', 'pag.'],
  pt: ['Sr.', 'Sra.', 'Dr.', 'Dra.', 'Prof.', 'prof.', 'profa.', 'pág.', 'etc.'],
};
const requireData = createRequire(import.meta.url);
const abbreviations = new Map<string, ReadonlySet<string>>();
/** The abbreviations of a page's language (its base: "en-GB" reads "en"), CLDR's and ours. */
function abbreviationsFor(lang: string | null): ReadonlySet<string> {
  const tag = (lang ?? 'en').toLowerCase().split(/[-_]/)[0]!;
  const base = /^[a-z]{2,3}$/.test(tag) ? tag : '';
  let set = abbreviations.get(base);
  if (!set) {
    let cldr: string[] = [];
    try {
      const data = requireData(`cldr-segments-full/segments/${base}/suppressions.json`) as { segments: { segmentations: { SentenceBreak: { standard: Array<{ suppression: string }> } } } };
      cldr = data.segments.segmentations.SentenceBreak.standard.map((s) => s.suppression);
    } catch { /* CLDR has no suppressions for this language: ours only */ }
    // Not CLDR's initials ("A.", "B."): "Appendix A." ends a sentence, "Susan G." does not (MIDDLE_INITIAL tells them apart).
    set = new Set([...cldr.filter((a) => !/^\p{Lu}\.$/u.test(a)), ...(OWN_ABBREVIATIONS[base] ?? [])]);
    // Every tag is kept (the map is bounded: a tag that names no language shares one entry), so a failed look-up is not retried.
    abbreviations.set(base, set);
  }
  return set;
}
/** Abbreviations that stand before a name and never end a sentence (a title): "Gov. Kristi Noem", "Dr. Smith". */
// (Not "Sr.": "Harry Connick Sr. The ceremony ..." ends a sentence as often as Spanish "Sr. García" goes on.)
const BEFORE_A_NAME = new Set(['Gov.', 'Sen.', 'Rep.', 'Dr.', 'Mr.', 'Mrs.', 'Ms.', 'St.', 'Gen.', 'Col.', 'Lt.', 'Sgt.', 'Capt.', 'Cmdr.', 'Adm.', 'Rev.', 'Hon.', 'Pres.', 'Supt.', 'Atty.', 'Insp.', 'Prof.', 'prof.', 'profa.', 'Sra.', 'Srta.', 'Dra.', 'Lic.', 'Ing.', 'Sig.', 'Dott.', 'Avv.', 'Hr.', 'Fr.', 'M.', 'Mme.', 'Mlle.', 'z.B.', 'd.h.', 'u.a.', 'e.g.', 'i.e.']);
/** Whether a segment ending in `word` goes on into the next: always after a title, after another abbreviation before lower case or a digit. */
function joinsAfter(word: string, abbreviated: ReadonlySet<string>, next: string): boolean {
  if (!abbreviated.has(word)) return false;
  if (BEFORE_A_NAME.has(word) || /^[\p{Lu}]\.(?:[\p{Lu}]\.)+$/u.test(word)) return true;
  // A month before its day ("Nov. 19"), anything before lower case ("Corp. and its ...").
  return /^\s*[\p{Ll}\d(]/u.test(next);
}

/** The last word of a segment, with its dot ("the U.S. " -> "U.S."), after a space or a bracket. */
const LAST_WORD = /(?:^|[\s(\[“"'‘])(\S+\.)\s*$/u;

/** A day's number with its ordinal's full stop ("12."), and what follows it in a date: a month, or "bis". */
const GERMAN_ORDINAL = /(?:^|\s)\d{1,2}\.\s*$/u;
/** A German date's preposition before its ordinal ("Am 12.", "vom 3."): German whatever language the page declares. */
const GERMAN_DATE_START = /(?:^|\s)(?:Am|Vom|vom|Bis|bis|Zum|zum|Seit|seit)\s\d{1,2}\.\s*$/u;
const GERMAN_ORDINAL_NEXT = /^\s*(bis|und|januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember|jan|feb|mär|apr|jun|jul|aug|sep|okt|nov|dez)\b/iu;

/** "!" or "?" inside brackets or quotes, followed by lower case: an aside, not a sentence end. */
const ASIDE_END = /[!?]["'”’)\]]+\s*$/u;
/** An initial ("Susan G.") or an abbreviation ("e.g.", "etc.") the segmenter took for a sentence end. */
const ABBREVIATION_END = /(\b\p{Lu}|\b(e\.g|i\.e|etc|vs|cf|approx|incl|resp|no|vol|fig|ca|z\.B|bzw|usw|p\.ex|env))\.\s*$/u;
/**
 * A first name and a middle initial ("Susan G." + "Kleinmann and Sven Rudolph", "Ian A." + "Murdock"):
 * a name goes on, whatever case follows. Not "Appendix A." or "Vitamin C.", which can end a sentence.
 */
const MIDDLE_INITIAL = /(?<![\p{L}\d])\p{Lu}\p{Ll}+\s\p{Lu}\.\s*$/u;
const NOT_A_NAME = /(?<![\p{L}\d])(appendix|annex|part|section|chapter|table|figure|type|class|level|grade|plan|option|step|group|phase|stage|version|vitamin|exhibit|model|row|column|point)\s\p{Lu}\.\s*$/iu;
/** "e.g.", "i.e.": abbreviations that never end a sentence, whatever follows ("e.g. Box<T> owns ..."). */
const NEVER_ENDS = /(^|[\s(])(e\.g|i\.e|z\.B|p\.ex|d\.h|u\.a)\.\s*$/u;
/** A name that ends in "!" (a Rust macro: "println!", "panic!") followed by lower case: "the println! macro" is one sentence. */
const BANG_NAME = /[\p{L}\d_]!\s*$/u;
/** A brand whose name has its "!" ("E! News", "Yahoo! Finance"): "..., according to E!" + "News." is one sentence. */
const BANG_BRAND = /(?<![\p{L}\d])(?:E|Yahoo)!\s*$/u;
const BANG_BRAND_NEXT = /^\s*(?:News|Online|Entertainment|Finance|Sports|Mail|Answers|Music|Movies|Life|Japan)\b/u;
/** A number cut at its dot with nothing between ("9.2." + "X"): one token. */
const NUMBER_CUT = /\d\.$/u;
const ELLIPSIS_END = /(\.\.\.|…)\s*$/u;
/** A quotation opened and not closed: "South Dakota’s viral “Meth." + "We’re on it.” awareness campaign ..." is one sentence. */
const openQuotes = (text: string) => (text.match(/“/gu) ?? []).length - (text.match(/”/gu) ?? []).length;
/**
 * A model's or a product's name in capitals with a dot inside it ("The VW ID." + "SPACE VIZZION is ..."): after a short
 * fragment ending in a capitals' abbreviation, or before two words in capitals, the name goes on. Not "... moved to the UK." +
 * "NASA said ...": a sentence of its own before one capitals' word.
 */
const CAPITALS_ABBREVIATION = /(?<![\p{L}\d])\p{Lu}[\p{Lu}\d]{0,3}\.\s*$/u;
const SHORT_FRAGMENT = /^\s*(?:\S+\s+){0,3}\S+\s*$/u;
const NAME_IN_CAPITALS_GOES_ON = (previous: string, segment: string) => CAPITALS_ABBREVIATION.test(previous)
  && (/^\s*\p{Lu}{2,}\s+\p{Lu}{2,}(?![\p{L}.])/u.test(segment) || (SHORT_FRAGMENT.test(previous) && /^\s*\p{Lu}{2,}(?![\p{L}.])/u.test(segment)));
/** A sentence that begins with a lower-case identifier ("pg_dump", "ls2"), which the segmenter does not break before. */
const IDENTIFIER_START = /(?<=[\p{L}\d)\]"'”’][.!?])\s+(?=\p{Ll}[\p{L}\d]*[_\d][\p{L}\d_]*\s)/gu;

export function sentencesOf(block: string, lang: string | null): string[] {
  const raw = [...segmenterFor(lang).segment(block)].map((s) => s.segment);
  const abbreviated = abbreviationsFor(lang);
  const merged: string[] = [];
  for (const segment of raw) {
    const previous = merged.at(-1);
    const joins = previous !== undefined && (
      (ASIDE_END.test(previous) && /^\p{Ll}/u.test(segment))
      || (NUMBER_CUT.test(previous) && /^[\p{Lu}\d]/u.test(segment))
      || (ELLIPSIS_END.test(previous) && /^\p{Lu}[\p{Lu}\d_]+\b/u.test(segment))
      // Only when what follows cannot start a sentence ("e.g. h1 tags", "etc. and"): "no. The garden" is two.
      || (ABBREVIATION_END.test(previous) && /^\s*[\p{Ll}\d(]/u.test(segment))
      || NEVER_ENDS.test(previous)
      // As ICU does with CLDR's list: "Gov. Kristi Noem", "the U.N. Security Council", "Nov. 19"; but one that often ends a
      // sentence ("Acme Corp. The merger ...", "Fresno, Calif. It employs ...") only before lower case or a digit.
      || joinsAfter(LAST_WORD.exec(previous)?.[1] ?? '', abbreviated, segment)
      // A German date's ordinal ("Am 12. September", "12. bis 13. September").
      // (On a page that declares another language, after a German date's preposition: "Am 12. bis 13. September" on a page
      // marked English.)
      || (GERMAN_ORDINAL.test(previous) && (/^de\b/iu.test(lang ?? '') || GERMAN_DATE_START.test(previous)) && GERMAN_ORDINAL_NEXT.test(segment))
      || (MIDDLE_INITIAL.test(previous) && !NOT_A_NAME.test(previous) && /^\s*\p{Lu}\p{Ll}/u.test(segment))
      || (BANG_NAME.test(previous) && /^\s*\p{Ll}/u.test(segment))
      || (BANG_BRAND.test(previous) && BANG_BRAND_NEXT.test(segment))
      // (Only where the segment closes it, before it opens another: a quotation of several sentences ends where its mark is.)
      || (openQuotes(previous) > 0 && /^[^“]*”\s*\p{Ll}/u.test(segment))
      || NAME_IN_CAPITALS_GOES_ON(previous, segment)
    );
    if (joins) merged[merged.length - 1] = previous + segment;
    else merged.push(segment);
  }
  return merged.flatMap((s) => s.split(IDENTIFIER_START)).map((s) => s.trim()).filter(Boolean);
}
