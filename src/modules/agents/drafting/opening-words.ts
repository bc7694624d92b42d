// The words that keep a sentence from opening a description, kept per language: a word of one
// language is an ordinary word of another (Italian "Il black Friday ..." opens with an article,
// French "Il a ..." with a pronoun; Spanish "Es un día ..." with a verb, German "Es ist ..." with
// a pronoun). A page in a known language is read with its own list; one without a language (or in
// a language not listed) with all of them, as before they were kept apart.

type Words = {
  /** Words that tie a sentence to the one before it ("However", "For example"). */
  connectives: string[];
  /** Personal pronouns: they stand for something named before ("They were released ..."). */
  pronouns: string[];
  /** Words that point back ("This", "These", "The same"): fine at a page's very start only. */
  referring: string[];
  /** "This year", "This week": the time the page is written in, which names itself. */
  now: string[];
  /** What opens a sentence that turns against the one before it ("However, it was this bedding that ..."). */
  contrasts: string[];
  /** Words of a sentence that says what is not, or may be: with a turn after it, a set-up (a foil), not the news. */
  hedges: string[];
};

const WORDS: Record<string, Words> = {
  en: {
    connectives: [
      'however', 'but', 'and', 'or', 'so', 'also', 'then', 'thus', 'therefore', 'otherwise', 'instead', 'moreover', 'furthermore', 'nevertheless',
      'hence', 'yet', 'still', 'lastly', 'finally', 'similarly', 'likewise', 'conversely', 'meanwhile', 'consequently', 'accordingly', 'in addition',
      'for example', 'for instance', 'for (more|less|most|further|simpler|other)', 'e\\.g\\.', 'i\\.e\\.', 'in this case', 'in that case', 'in other words', 'as a result', 'as previously', 'as mentioned',
      'as described', 'as shown', 'as noted', 'as always', 'yes', 'no', 'of course', 'here', 'there are, however', 'on the other hand',
      'since then', 'after that', 'before that', 'from then on', 'by then', 'until then', 'at that time', 'at this point', 'in turn', 'even so',
      // A tutorial's place in its own sequence: "Now we'll add ...", "By now, you've learned ...", "At the moment, we're writing ...".
      'now(?! that)', 'by now', 'so far', 'right now', 'at the moment', 'additionally', 'alternatively', 'suppose', 'next(?=,)', 'again',
      // One of several ways, the one before on the page: "Another way to deal with this ...", "An alternative approach is ...", "At the time, we said ...".
      'another', 'an alternative(?! to)', 'at the time',
    ],
    pronouns: ['it', 'its', 'they', 'their', 'them', 'he', 'she', 'his', 'her'],
    referring: ['this', 'these', 'those', 'that', 'such', 'the other', 'the same', 'the latter', 'the former', 'the rest', 'the remaining', 'both', 'either',
      'neither', 'each of', 'all of', 'one of', 'some of', 'most of', 'many of'],
    now: ['this (year|week|month|morning|afternoon|evening|weekend|season|summer|winter|spring|autumn|fall|semester|quarter)', 'this past'],
    contrasts: ['however', 'but', 'yet', 'instead', 'in fact', 'actually', 'in reality'],
    hedges: ['not', '\\w+n[\'’]t', 'never', 'probably', 'perhaps', 'maybe', 'might', 'no one', 'nobody'],
  },
  fr: {
    connectives: ['cependant', 'mais', 'et', 'ou', 'donc', 'ainsi', 'aussi', 'sinon', 'toutefois', 'néanmoins', 'par exemple', 'en effet', 'de plus', 'enfin', 'oui', 'non'],
    pronouns: ['il', 'elle', 'ils', 'elles'],
    referring: ['cela', 'ceci', 'ce', 'cet', 'cette', 'ces', 'celui', 'celle', 'ceux'],
    now: ['(cette|cet|ce) (année|semaine|saison|mois|week-end|matin|soir|été|hiver|printemps|automne|trimestre)'],
    contrasts: ['cependant', 'mais', 'pourtant', 'en réalité', 'en fait'],
    hedges: ['ne', 'n[\'’]\\p{L}+', 'pas', 'jamais', 'peut-être', 'sans doute'],
  },
  de: {
    connectives: ['aber', 'und', 'oder', 'jedoch', 'dann', 'daher', 'außerdem', 'deshalb', 'zum beispiel', 'beispielsweise', 'also', 'ja', 'nein'],
    pronouns: ['es', 'sie', 'er'],
    referring: ['dies', 'diese', 'dieser', 'dieses'],
    now: ['(dieses|diese|diesen) (jahr|jahres|woche|monat|wochenende|saison|sommer|winter|frühjahr|herbst|quartal)'],
    contrasts: ['aber', 'doch', 'jedoch', 'tatsächlich'],
    hedges: ['nicht', 'kein\\p{L}*', 'nie', 'vielleicht', 'wohl'],
  },
  es: {
    connectives: ['pero', 'y', 'sin embargo', 'además', 'entonces', 'por lo tanto', 'por ejemplo', 'sí'],
    pronouns: [],
    referring: ['ello', 'esto', 'este', 'esta', 'estos', 'estas'],
    now: ['(este|esta) (año|semana|mes|temporada|verano|invierno|otoño|primavera|fin de semana|trimestre)'],
    contrasts: ['pero', 'sin embargo', 'en realidad'],
    hedges: ['no', 'nunca', 'quizás', 'tal vez'],
  },
  it: {
    connectives: ['tuttavia', 'ma', 'però', 'quindi', 'inoltre', 'per esempio', 'ad esempio'],
    pronouns: [],
    referring: ['questo', 'questa', 'questi', 'queste'],
    now: ['quest[\'’]anno', '(questa|questo) (settimana|mese|fine settimana|stagione|estate|inverno|autunno|primavera)'],
    contrasts: ['ma', 'tuttavia', 'però', 'in realtà'],
    hedges: ['non', 'mai', 'forse'],
  },
  pt: {
    connectives: ['porém', 'mas', 'então', 'além disso', 'por exemplo'],
    pronouns: [],
    referring: ['isso', 'isto', 'este', 'esta', 'estes', 'estas'],
    now: ['(este|esta) (ano|semana|mês|temporada|verão|inverno|outono|primavera|fim de semana|trimestre)'],
    contrasts: ['mas', 'porém', 'no entanto', 'na verdade'],
    hedges: ['não', 'nunca', 'talvez'],
  },
};

/** The same in Chinese and Japanese, written without spaces (so without \\b): "然后通过 ... 重启 Apache" ("Then restart Apache ..."). */
const CJK_CONNECTIVES = ['然后', '但是', '但', '因此', '所以', '另外', '此外', '而且', '同样', '例如', '那么', '接着', '其次', '最后', '不过',
  'しかし', 'また', 'そして', 'ただし', 'なお', '例えば', 'さらに', 'したがって', 'それから', '次に', 'そのため', 'つまり'];

export interface OpeningWords {
  connective: RegExp;
  pronoun: RegExp;
  refersBack: RegExp;
  now: RegExp;
  contrast: RegExp;
  /** Anywhere in a sentence (letter-aware boundaries: \\b does not know "é"). */
  hedge: RegExp;
}

const ALL = Object.keys(WORDS);
/** Letter-aware word ends: \\b knows ASCII letters only ("però", "sí" never matched; "No" matched "Noël"). */
const END = '(?![\\p{L}\\p{N}])';
const starts = (words: string[]) => (words.length === 0 ? /(?!)/u : new RegExp(`^(${words.join('|')})${END}`, 'iu'));
function compile(languages: string[]): OpeningWords {
  const of = (key: keyof Words) => languages.flatMap((l) => WORDS[l]![key]);
  return {
    connective: new RegExp(`^((${of('connectives').join('|')})${END}|(${CJK_CONNECTIVES.join('|')}))`, 'iu'),
    pronoun: starts(of('pronouns')),
    refersBack: starts([...of('pronouns'), ...of('referring')]),
    now: starts(of('now')),
    contrast: starts(of('contrasts')),
    hedge: new RegExp(`(?<![\\p{L}\\p{N}])(${of('hedges').join('|')})(?![\\p{L}\\p{N}])`, 'iu'),
  };
}
const compiled = new Map<string, OpeningWords>();

/** The opening words of a page's language ("en-GB" reads English's), or of every listed language when it has none or another. */
export function openingWords(lang: string | null | undefined): OpeningWords {
  const primary = lang?.toLowerCase().split(/[-_]/u)[0] ?? '';
  const key = primary in WORDS ? primary : '*';
  let words = compiled.get(key);
  if (!words) compiled.set(key, (words = compile(key === '*' ? ALL : [key])));
  return words;
}
