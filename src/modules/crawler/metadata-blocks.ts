/**
 * Blocks that are about an article, not of it: a byline, a dateline of publication or
 * update, a copyright line, a comments policy. Each rule is named data, with a block it
 * catches and one it lets through (metadata-blocks.test.ts checks both); a block over
 * MAX_CHARS is prose whatever it starts with.
 */
export const MAX_CHARS = 160;

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
/** A month and day ("November 18th"), as a dated byline gives it. */
/** A person's name as a byline writes it: two to four words in capitals ("Mike Wuerthele", "Errin Haines", "Anne-Marie O'Neil"). */
const NAME = `\\p{Lu}[\\p{L}.'’-]+(?:\\s+\\p{Lu}[\\p{L}.'’-]+){1,3}`;
/** What a writer's note says the writer is, in any case ("freelance writer", "Senior Editor"). */
const ROLE = '(?i:writer|journalist|reporter|editor|author|correspondent|columnist|contributor|blogger|educator|publisher|curator)';
const AND_ROLE = '(?:\\s+and\\s+[\\p{Ll}-]+(?:\\s+[\\p{Ll}-]+)?)?';
/** Who reported, wrote or edited a wire story, by name: "additional reporting by Stephanie Kelly, Saqib Iqbal Ahmed and Gertrude Chavez-Dreyfuss". */
const CREDIT_NAME = `\\p{Lu}[\\p{L}.'’-]*(?:\\s+\\p{Lu}[\\p{L}.'’-]*){0,3}`;
const CREDIT = `(?:[Aa]dditional |[Ww]ith )?(?:[Rr]eporting|[Ee]diting|[Ww]riting) by ${CREDIT_NAME}(?:(?:,|,?\\s+and)\\s+${CREDIT_NAME})*(?:\\s+in\\s+${CREDIT_NAME})?`;
/** Comments and their moderation, in a few languages; and words that speak to the reader, or a notice's label ("Note:", "ATENÇÃO:"). */
const COMMENTS_MODERATED = /(?<![\p{L}])(?:comments?|commenters?|comentários?|comentarios?|commentaires?|kommentare?)(?![\p{L}])[^.!?]{0,120}(?<![\p{L}])(?:moderat\p{L}*|moderad\p{L}*|approved|aprovad\p{L}*|aprobad\p{L}*|respectful)|(?<![\p{L}])moderating (?:all )?comments(?![\p{L}])/iu;
/** The site speaking of its own comments to its readers: "we", "our", "please", "your comments", a notice's label ("ATENÇÃO:"). */
const TO_THE_READER = /^[\p{L} ]{2,20}:|(?<![\p{L}])(?:please|bitte|por favor|veuillez|we|our|nós|nous|nosotros|wir|unser\p{L}*)(?![\p{L}])|(?<![\p{L}])(?:your|vos|votre|seu|sua|ihr|tus?|sus?)\s+(?:comments?|comentários?|comentarios?|commentaires?|kommentare?)(?![\p{L}])/iu;
/** The credits of a wire story (the reporting_credit rule). */
const REPORTING_CREDIT = new RegExp(`^(?:\\(?${CREDIT}(?:[;,]\\s*${CREDIT})*[.)]*|[^.!?]{2,200}\\bcontributed (?:reporting|to this report)\\b[^.!?]{0,40}[.)]*)$`, 'u');
/** A date as news sites print it, in capitals: "Nov 19, 2019", "November 19, 2019". */
const DATE_CASED = `(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\\.?\\s+\\d{1,2},?\\s+(?:19|20)\\d{2}`;
const MONTH_DAY_CASED = `(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?\\b`;
const DATE = `(?:${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+(?:19|20)\\d{2}|\\d{1,2}\\s+${MONTH}\\s+(?:19|20)\\d{2}|(?:19|20)\\d{2}-\\d{2}-\\d{2}(?:T\\S+)?|\\d{1,2}[./]\\d{1,2}[./](?:19|20)\\d{2})\\b`;

/** JavaScript's \b knows only ASCII letters: the edges of a word in any script. */
const NOT_LETTER_BEFORE = '(?<![\\p{L}\\p{N}])';
const NOT_LETTER_AFTER = '(?![\\p{L}\\p{N}])';
/** Month names as datelines print them, in the languages of the pages read: English, German, French, Spanish, Portuguese, Italian, Indonesian, Russian. */
const MONTH_NAME = `(?:jan(?:uary|uar|vier|eiro|uari)?|feb(?:ruary|ruar|rero|ruari)?|févr(?:ier)?|fev(?:ereiro)?|mar(?:ch|s|zo|ço|et)?|märz|apr(?:il|ile)?|avr(?:il)?|abr(?:il)?|may|mai|mayo|maio|mei|mag(?:gio)?|jun(?:e|i|io|ho)?|juin|giu(?:gno)?|jul(?:y|i|io|ho)?|juil(?:let)?|lug(?:lio)?|aug(?:ust|ustus)?|août|ago(?:sto)?|agu(?:stus)?|sep(?:t(?:ember)?)?|sept(?:iembre|embre)?|set(?:embro|tembre)?|oct(?:ober|obre|ubre)?|okt(?:ober)?|out(?:ubro)?|ott(?:obre)?|nov(?:ember|embre|embro)?|dec(?:ember)?|dez(?:ember|embro)?|déc(?:embre)?|dic(?:iembre|embre)?|des(?:ember)?|январ[яь]|феврал[яь]|марта?|апрел[яь]|ма[яй]|июн[яь]|июл[яь]|августа?|сентябр[яь]|октябр[яь]|ноябр[яь]|декабр[яь])\\.?`;
const YEAR = '(?:19|20)\\d{2}';
/** A month's and a day's number (a version's "1.2.10" or "3.12.10" is no date: a two-digit year only after slashes, "11/13/19"). */
const MONTH_NUMBER = '(?:0?[1-9]|1[0-2])';
const DAY_NUMBER = '(?:0?[1-9]|[12]\\d|3[01])';
const DAY_OR_MONTH = DAY_NUMBER;
/** A full date: "Nov. 19, 2019", "22 de janeiro de 2018", "11 октября 2018", "2016.12.01", "11/13/19"; run into a capital ("2019Updated:"), as markup without spaces reads. */
const STAMP_DATE = new RegExp(`${NOT_LETTER_BEFORE}(?:${MONTH_NAME}\\s*\\d{1,2}(?:st|nd|rd|th)?,?\\s+${YEAR}|\\d{1,2}\\.?\\s+(?:de\\s+)?${MONTH_NAME},?\\s+(?:de\\s+)?${YEAR}|${YEAR}[-./]${MONTH_NUMBER}[-./]${DAY_NUMBER}(?:T[\\d:.+Z-]+)?|${DAY_OR_MONTH}/${DAY_OR_MONTH}/(?:${YEAR}|\\d{2})|${DAY_OR_MONTH}\\.${DAY_OR_MONTH}\\.${YEAR})(?:${NOT_LETTER_AFTER}|(?=(?-i:\\p{Lu})))`, 'giu');
/** A day and a month without the year ("05 Oct", "Nov 18"): a date only in a block of nothing else. */
const STAMP_DAY = new RegExp(`${NOT_LETTER_BEFORE}(?:${MONTH_NAME}\\s*\\d{1,2}(?:st|nd|rd|th)?|\\d{1,2}\\.?\\s+(?:de\\s+)?${MONTH_NAME})${NOT_LETTER_AFTER}`, 'giu');
/** A clock time ("0:13", "8:22AM", "1:23 p.m."). */
const STAMP_TIME = /(?<![\p{L}\p{N}])\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?\s?m\.?)?(?![\p{L}\p{N}])/giu;
/** The words around a date in a stamp: weekdays, labels ("Published", "atualizado", "diposting"), "at", "on", "de", am/pm. */
const STAMP_WORDS = new RegExp(`${NOT_LETTER_BEFORE}(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?|wednesday|saturday|\\p{L}+-feira|sábado|domingo|lunes|martes|miércoles|jueves|viernes|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|senin|selasa|rabu|kamis|jumat|sabtu|minggu|published|updated|posted|modified|first|last|original|originally|today|yesterday|on|at|and|às|em|de|am|um|le|publicado|atualizado|actualizado|publié|veröffentlicht|aktualisiert|diposting|pada|oleh|[ap]m|gmt|utc)${NOT_LETTER_AFTER}\\.?`, 'giu');
/** A time zone in capitals ("EST", "AMT", "GMT+3"). */
const STAMP_ZONE = /(?<![\p{L}\p{N}])[A-Z]{2,4}(?:[+-]\d{1,2})?(?![\p{L}\p{N}])/gu;
const STAMP_MAX_NAMES = 5;
/** What a time stamp says of the page: published, updated, posted, in the languages of the pages read. */
const PUBLISHING_LABEL = new RegExp(`${NOT_LETTER_BEFORE}(?:published|updated|posted|modified|publicado|atualizado|actualizado|publié|mis à jour|veröffentlicht|aktualisiert|diposting)${NOT_LETTER_AFTER}`, 'iu');
/** A day named relative to today, at a time ("Today at 1:23 p.m.", "Gestern um 9:05"): not a shop's "Today 10:00 - 18:00". */
const RELATIVE_DAY_AT = /(?<![\p{L}])(?:today|yesterday|heute|gestern|hoje|ontem|hoy|ayer|hier|aujourd['’]hui)\s+(?:at|um|às|a las|à)\s+\d/iu;
/** A label before a colon that a stamp may have: the writer's, the photographer's, the time's ("Текст: Лида Буслаева·11 октября 2018"). */
const STAMP_LABEL = new RegExp(`^(?:(?:last|first)\\s+)?(?:text|texto|текст|foto|fotos|photo|photos|by|por|von|par|reporter|reportagem|redação|redacción|autor|author|written|published|updated|posted|modified|publicado|atualizado|actualizado|publié|mis à jour|veröffentlicht|aktualisiert|erschienen|stand|diperbarui|diposting|date|data|datum|fecha|기사입력|입력|수정|등록|公開日|更新日|投稿日|发布时间|更新时间)(?:\\s+(?:on|am|le|em|el|by|at|in))?$`, 'iu');
/** A byline's names ("By Ann Sale"): a surname is no event word. */
const BYLINE_NAMES = /(?<![\p{L}])(?:[Bb]y|[Vv]on|[Pp]ar|[Pp]or)\s+(?:\p{Lu}[\p{L}'’.-]*\s*){1,4}/gu;
/** Words of an event, an offer or a deadline beside a date: the page's own news, not its stamp. */
const EVENT_WORDS = new RegExp(`${NOT_LETTER_BEFORE}(?:webinar|event|deadline|due|ends?|expires?|until|starts?|begins?|opens?|closes?|offer|sale|valid|release date|registration|tickets?)${NOT_LETTER_AFTER}`, 'iu');
const HAS_DIGIT = /\d/;
/** A name as a stamp gives one: in capitals, in a script without case (기사입력), a site's address (smithsonian.com). */
const STAMP_NAME = /^(?:\p{Lu}|\p{Lo}|[\p{L}\p{N}-]+\.[\p{L}]{2,}$)/u;

/**
 * A date stamp: a date (month names in the languages of the pages read: English, German, French, Spanish, Portuguese, Italian,
 * Indonesian, Russian), times, weekdays and the labels around them, with at most a few names beside (the writer, the agency,
 * the site): "segunda-feira, 22 de janeiro de 2018 às 0:13", "Brent Co November 20, 2019 12:32", "By Umair Irfan Updated
 * Nov 13, 2019, 10:28am EST", "Текст: Лида Буслаева·11 октября 2018". Not a sentence (its words are not names), not a
 * timeline's entry (a date and a colon), and a time without a date only with labels ("Updated at 1:23 p.m.", not "10:30 Keynote").
 */
function isDateStamp(block: string): boolean {
  if (!HAS_DIGIT.test(block)) return false;
  // A quoted post's signature ("— Ilhan Omar (@Ilhan) November 19, 2019") is the quote's, and the article's.
  if (block.includes('@')) return false;
  const dated = block.replace(STAMP_DATE, ' ');
  const fullDate = dated !== block;
  // A timeline's entry ("March 3, 2020: Super Tuesday") or a changelog's ("2023-05-01: Added ...") is the page's own.
  if (fullDate && /^\s*:/.test(block.split(STAMP_DATE).at(1) ?? '')) return false;
  const undated = fullDate ? dated : dated.replace(STAMP_DAY, ' ');
  const rest = undated.replace(STAMP_TIME, ' ');
  if (rest === block) return false;
  const unlabelled = rest.replace(STAMP_WORDS, ' ');
  const words = unlabelled.replace(STAMP_ZONE, ' ').match(/[\p{L}\p{N}][\p{L}\p{N}.'’-]*/gu) ?? [];
  // A day without its year alone with its labels; a time only with a publishing label ("Updated at 1:23 p.m.", not a live blog's
  // "4:14 p.m." nor a shop's opening hours, "Mon 10:00 - 18:00").
  if (!fullDate) return words.length === 0 && (undated !== block || PUBLISHING_LABEL.test(block) || RELATIVE_DAY_AT.test(block));
  // An event, an offer or a deadline is the page's own ("Webinar: Tuesday, June 4, 2024 at 2:00 PM", "Offer Ends November 30, 2024").
  if (EVENT_WORDS.test(block.replace(BYLINE_NAMES, ' '))) return false;
  const label = /^\s*([\p{L}][\p{L} ]{0,28}):/u.exec(block)?.[1];
  if (label !== undefined && !STAMP_LABEL.test(label.trim())) return false;
  // A full date beside a few names (after "by" a name needs no capital).
  const names = words.filter((word, i) => !/^by$/i.test(word) && (STAMP_NAME.test(word) || /^by$/i.test(words[i - 1] ?? '')));
  const bys = words.filter((word) => /^by$/i.test(word)).length;
  return names.length + bys === words.length && names.length <= STAMP_MAX_NAMES;
}

/** `anyLength`: the rule holds for a block of any length (a caption is as long as its photographer made it). */
export const METADATA_BLOCKS: Array<{ id: string; pattern: RegExp | { test: (block: string) => boolean }; example: string; counterExample: string; anyLength?: true }> = [
  {
    id: 'byline',
    // The name alone, or followed by a separator and what the writer is ("| Staff writer"): never a sentence that starts with "By".
    pattern: /^(?:[Bb]y|[Ww]ritten by|[Pp]osted by|[Ss]tory by|[Ww]ords by|[Vv]on|[Pp]ar|[Pp]or|[Dd]i)\s+\p{Lu}[\p{L}.'’-]+(?:\s+\p{Lu}[\p{L}.'’-]+){0,3}\s*(?:$|[|·•–—]\s*\S[^.!?]*$)/u,
    example: 'By Bill Hoppe | Special to the Pioneer Press',
    counterExample: 'By Monday, the water had receded from the lower town.',
  },
  {
    id: 'updated_line',
    pattern: new RegExp(`^(?:updated|published|posted)\\s+[^.!?]{0,40}${DATE}[^.!?]{0,20}$`, 'iu'),
    example: 'Updated 5:27 am CST, Wednesday, November 20, 2019',
    counterExample: 'Updated guidance from the agency arrived on November 20, 2019, and changed everything.',
  },
  {
    id: 'dateline',
    pattern: new RegExp(`^(?:(?:published|updated|posted|last updated|modified|first published)\\s*:?\\s*)?(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?,?\\s+)?${DATE}(?!\\s*:)[^.!?]{0,60}$`, 'iu'),
    example: 'PUBLISHED: November 19, 2019 at 8:59 pm | UPDATED: November 19, 2019 at 10:16 pm',
    counterExample: 'November 19, 2019 was the day the Wild finally won on the road, and the fans noticed.',
  },
  {
    id: 'relative_time',
    pattern: /^[-–—•·]?\s*(?:(?:published|updated|posted)\s+)?(?:\d+|an?|one)\s+(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?)\s+ago(?:\s+(?:on|in|via|[·|–-])\s+[^.!?]{1,30})?$/iu,
    example: '22 hours ago on iOS Blog',
    counterExample: '3 weeks ago I started running every morning',
  },
  {
    id: 'dated_line',
    pattern: new RegExp(`^[-–—•·]?\\s*(?:(?:published|updated|posted)\\s*:?\\s*)?(?:(?:mon|tue|tues|wed|thu|thurs|fri|sat|sun)\\.?,?\\s+)?${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?(?:\\s+\\d{4})?,?\\s+(?:at\\s+)?\\d{1,2}:\\d{2}[^.!?]{0,60}$`, 'iu'),
    example: '- Nov. 18th 2019 8:54 am PT',
    counterExample: 'Nov. 18 2019 at 8:54 am is when the first call came in. It would not be the last.',
  },
  {
    id: 'newsletter_promo',
    // Or a newsletter's pitch in its own words: "Let our news meet your inbox. ... delivered weekday mornings."
    pattern: /^(?:subscribe|sign up|get|join)\b[^.!?]{0,100}\b(?:newsletters?|news alerts?|breaking news)\b[^!?]{0,140}$|\b(?:meet your inbox|delivered to your inbox|straight to your inbox|delivered weekday mornings)\b/iu,
    example: 'Get breaking news alerts and special reports. The news and stories that matter, delivered weekday mornings.',
    counterExample: 'Get security updates automatically by turning on the setting below.',
  },
  {
    id: 'interface_label',
    // A label whose value is elsewhere (a list of tags, share buttons) or a byline's "By" left alone when the name is a link.
    // And the words of a page's furniture, alone in a block (counted on the 181 pages of the extraction benchmark): "Advertisement",
    // "Image 3 of 12", "Share on twitter", "%d bloggers like this:", "MORE STORIES LIKE THIS ONE".
    pattern: /^(?:tags|tagged|share|share this(?: article| story)?|related|related articles|filed under|categories|category|topics|posted in|by|von|par|por|advertisement|advert|advertising|anzeige|publicité|publicidad|pubblicità|iklan|sponsored(?: links| content)?|caption|close|menu|back to gallery|image \d+ of \d+|comments?(?: \(\d*\+?\))?|share on (?:facebook|twitter|linkedin|whatsapp|email|pinterest)|up next|newsletter|breaking news|more stories like this one|our latest stories|recent articles|popular this week|more from (?:the )?[\p{L} ]{2,40}|%d bloggers? like this|%d blogger menyukai ini|\d{1,2}:\d{2}\s?(?:am|pm))\s*:?\s*$/iu,
    example: 'Tags:',
    counterExample: 'Tags: what they are and how to use them well',
  },
  {
    id: 'chat_promo',
    pattern: /^(?:chat with us|message us|talk to us|follow us)\s+(?:in|on|via)\s+(?:facebook(?: messenger)?|messenger|whatsapp|telegram|twitter|x|instagram|linkedin|threads)\b[.!]?(?:\s[^.!?]{0,100}[.!]?)?$/iu,
    example: 'Chat with us in Facebook Messenger. Find out what\'s happening in the world as it unfolds.',
    counterExample: 'Chat with us in the dark about what the stars were like in the old days, my grandmother would say, and then fall silent for hours.',
  },
  {
    id: 'contributor_disclaimer',
    pattern: /^(?:the )?(?:opinions|views) expressed\b[^.!?]{0,100}\b(?:are|is) (?:their|his|her|its|the author'?s?|solely)\b[^.!?]{0,40}[.!]?$/iu,
    example: 'Opinions expressed by Forbes Contributors are their own.',
    counterExample: 'Opinions expressed by the jury surprised the court and the lawyers alike.',
  },
  {
    id: 'posted_by_dated',
    // "By A, B on Monday, November 18th, 2019 at 11:08 a.m.", "05/10/2018 - Publicado por: Clarissa Borba - Categoria: Saúde."
    // Case-sensitive (a name follows in capitals): under the i flag \\p{Lu} matches any letter, and "By the end of the session
    // on Nov. 18, ..." or "A video posted by the ministry shows ..." would be taken for bylines.
    pattern: new RegExp(`^(?:[Bb]y\\s+\\p{Lu}[^.!?]{0,80}?\\s+on\\s+(?:(?:[Mm]on|[Tt]ues?|[Ww]ed(?:nes)?|[Tt]hu(?:rs)?|[Ff]ri|[Ss]at(?:ur)?|[Ss]un)day,?\\s+)?${MONTH_DAY_CASED}|[^.!?]{0,40}\\b(?:[Pp]ublicado por|[Pp]osted by|[Pp]ublié par|[Vv]eröffentlicht von|[Pp]ubblicato da|[Ee]scrito por)\\s*:?\\s+\\p{Lu})`, 'u'),
    example: 'By Matthew Digby , Minh Do on Monday, November 18th, 2019 at 11:08 a.m.',
    counterExample: 'By the end of the session on Nov. 18, lawmakers had passed three bills on housing and schools.',
  },
  {
    id: 'photo_caption',
    // A wire photo's caption set as text: "In this Dec. 12, 2006, file photo, made available by NASA, ...", "(AP Photo/Jon Gambrell)".
    // Only the wire's own forms at any length: "This image from NASA's telescope shows ..." opens real stories.
    pattern: /^In this\b[^!?]{0,40}\b(?:file photo|photo|image|picture|photograph),\s(?:made available|provided|released|taken|distributed)\b|\((?:AP|Reuters|AFP|Getty) (?:Photo|Images)\b[^)]*\)\s*$/u,
    example: 'In this Dec. 12, 2006, file photo, made available by NASA, astronaut Robert L. Curbeam Jr., left, and European Space Agency astronaut Christer Fuglesang take part in a space walk during construction of the International Space Station.',
    anyLength: true,
    counterExample: 'This image from NASA\'s James Webb Space Telescope shows thousands of galaxies in a patch of sky no bigger than a grain of sand held at arm\'s length, the agency said on Monday.',
  },
  {
    id: 'affiliate_disclosure',
    pattern: /\b(?:may (?:earn|receive) an? (?:affiliate )?commission|we may earn|(?:has|have) been compensated by|this (?:post|shop|article) (?:is|was) sponsored by)\b/iu,
    example: 'Microsoft may earn an Affiliate Commission if you purchase something through recommended links in this article',
    counterExample: 'Affiliate links let bloggers earn a living from what they recommend.',
  },
  {
    id: 'identifier',
    pattern: /^[\p{L}\p{N}_]+(?:[-/][\p{L}\p{N}_]+){2,}$/u,
    example: 'medium-browser-and-portrait-tablet',
    counterExample: 'Well-known state-of-the-art designs',
  },
  {
    id: 'byline_names',
    // Several writers, or a writer and the agency, or a name and its date: "By Stefan Becket, Kathryn Watson, Grace Segers",
    // "Meg Kinnard and Errin Haines, Associated Press", "Chris Davies - Nov 19, 2019, 10:31 pm CST". Case-sensitive: names.
    pattern: new RegExp(`^(?:By\\s+${NAME}(?:,\\s*(?:and\\s+)?${NAME})+|${NAME}(?:\\s+and\\s+${NAME})?,\\s*(?:Associated Press|Reuters|AFP|Bloomberg|The Associated Press)|(?:Associated Press|Reuters|AFP)\\s+${DATE_CASED}[^.!?]{0,30}|${NAME}\\s+[-–—|]\\s+${DATE_CASED}[^.!?]{0,30}|\\d{1,2}:\\d{2}\\s?[AP]M\\b[^.!?]{0,30}\\bby\\s+${NAME}|Von\\s+${NAME}\\s+(?:publiziert|veröffentlicht)\\s+am\\b[^!?]{0,30})$`, 'u'),
    example: 'By Stefan Becket, Kathryn Watson, Grace Segers',
    counterExample: 'By Monday, Kathryn had left for Boston and the others followed.',
  },
  {
    id: 'author_bio',
    // The writer's note under a story: "Brigit Katz is a freelance writer based in Toronto. Her work has appeared in ...", "Louise
    // Matsakis is a Staff Writer at WIRED covering ...", "Jeff Foust (jeff@...) is the editor and publisher of The Space Review".
    // With "the" the role is followed by where the writer works, by its name ("the editor and publisher of The Space Review"): not "is
    // the writer everyone quotes", nor "is the author of three books on gardening" (an author's own page, a bookshop's).
    pattern: new RegExp(`^${NAME}(?:\\s+is\\s+an?\\s+(?:[\\p{Ll}-]+\\s+){0,3}${ROLE}\\b|(?:\\s+\\([^)]{1,60}\\))?\\s+is\\s+(?:an?\\s+(?:[\\p{L}'’-]+\\s+){0,3}${ROLE}s?${AND_ROLE}(?:\\s+(?:at|for|of|with|based|covering)\\b|\\s*,)|the\\s+(?:[\\p{L}'’-]+\\s+){0,3}${ROLE}s?${AND_ROLE}\\s+(?:at|for|of)\\s+(?:the\\s+)?[“"‘]?\\p{Lu}))`, 'u'),
    example: 'Brigit Katz is a freelance writer based in Toronto. Her work has appeared in a number of publications.',
    counterExample: 'Tom Wolfe is the writer everyone quotes and nobody reads, the critic argued in her new book on the New Journalism.',
    anyLength: true,
  },
  {
    id: 'cookie_notice',
    pattern: /^(?:we use cookies|this (?:site|website) uses cookies|by (?:continuing|using) (?:to (?:browse|use) )?(?:this|our) (?:site|website)[^.]{0,40}cookies)\b/iu,
    example: 'We use cookies to understand how you use our site and to improve user experience.',
    counterExample: 'Cookies were first used by Netscape in 1994 to remember what a visitor had put in a cart.',
    anyLength: true,
  },
  {
    id: 'subscribe_promo',
    // "Subscribe to WIRED and stay smart ...", "Get Motor Cycle Monthly delivered through your letterbox ...", "If you enjoyed this article ... Join".
    pattern: /^(?:subscribe to (?:\p{Lu}[\p{L}]*|our|the)\b|get [\p{L} ]{2,40} delivered\b|get highlights of\b|if you enjoyed this article\b|there was a problem subscribing you\b)/iu,
    example: 'Subscribe to WIRED and stay smart with more of your favorite Ideas writers.',
    counterExample: 'Subscribers to the old plan keep their price until the end of the year, the company said.',
    anyLength: true,
  },
  {
    id: 'photo_credit',
    // A caption set as text, with its credit in brackets at the end: "Protesters have worn masks to protect their identities (Image: GETTY )".
    pattern: /\((?:image|photo|picture|credit|foto|bild)\s*:\s*[^)]{2,40}\)\s*$/iu,
    example: 'Protesters have worn masks to protect their identities (Image: GETTY )',
    counterExample: 'The photo (taken in 1969) shows the crew on the deck of the ship.',
  },
  {
    id: 'date_stamp',
    pattern: { test: isDateStamp },
    example: 'By Umair Irfan Updated Nov 13, 2019, 10:28am EST',
    counterExample: 'March 3, 2020: Super Tuesday',
  },
  {
    id: 'reporting_credit',
    // The newsroom's credits under a wire story: "(Reporting by Will Dunham; Editing by Tom Brown)", "Associated Press writers Alan Fram,
    // ... contributed to this report.", "Keith Bradsher contributed reporting from Hong Kong." Names only after "by" (case-sensitive):
    // never "Reporting by Reuters has shown ...", nor a sentence before the credit.
    // (Asked of every kept block of every page: a block with neither " by " nor "contributed " can match neither branch, and the
    // second's 200 characters of backtracking cost more than looking for them.)
    pattern: { test: (block) => (block.includes(' by ') || block.includes('contributed ')) && REPORTING_CREDIT.test(block) },
    example: 'Associated Press writers Alan Fram, Zeke Miller and Jill Colvin contributed to this report.',
    counterExample: 'Reporting by Reuters has shown that the minister knew.',
    anyLength: true,
  },
  {
    id: 'comments_policy',
    // The rules of a site's comments, told to its readers: "ATENÇÃO: Comentários com textos ininteligíveis ... não serão aprovados pelo
    // moderador.", "Note: we are temporarily moderating all comments ...". Not a story about moderation ("Facebook said comments ...").
    pattern: { test: (block) => COMMENTS_MODERATED.test(block) && TO_THE_READER.test(block) },
    example: 'ATENÇÃO: Comentários com textos ininteligíveis ou que faltem com respeito ao usuário não serão aprovados pelo moderador.',
    counterExample: 'Facebook said comments that break its rules are removed by moderators within a day.',
  },
  {
    id: 'follow_promo',
    // An invitation to follow the writer or the site elsewhere, or to reach them: "Follow The New York Times Opinion section on Facebook,
    // Twitter (@NYTopinion) and Instagram.", "Email Tariq Malik at ... or follow him @tariqjmalik.", "Amy Kuperinsky may be reached at ...".
    pattern: /\b[Ff]ollow\s+(?:us|him|her|them|me|@\w+|(?:the\s+)?\p{Lu}[^.!?]{0,60}?)\s+(?:on|at|in)\s+(?:Twitter|Facebook|Instagram|LinkedIn|X)\b|\b[Ff]ollow (?:us|him|her|them|me) @\w+|\bmay be reached at\b|^[Ff]ollow [^.!?]{0,60}\bcoverage\b/u,
    example: 'Email Tariq Malik at tmalik@space.com or follow him @tariqjmalik. Follow us on Twitter @Spacedotcom and on Facebook.',
    counterExample: 'Police followed him on foot through the market until he stopped.',
  },
  {
    id: 'copyright',
    pattern: /^(?:©|copyright\s*(?:©|\(c\)|\d{4}))/iu,
    example: '© 2019 Hearst Communications, Inc.',
    counterExample: 'Copyright law protects the expression of an idea, not the idea itself.',
  },
];

/** Addresses take this share of a block or more: a list of files or links written out, not prose. */
const URL_SHARE = 0.5;

/** The rule a block breaks, or undefined: a block that is about the article, not of it. */
export function metadataRule(block: string): string | undefined {
  const urls = block.match(/https?:\/\/\S+/g);
  if (urls && urls.join('').length >= block.length * URL_SHARE) return 'addresses';
  const long = block.length > MAX_CHARS;
  return METADATA_BLOCKS.find((rule) => (!long || rule.anyLength) && rule.pattern.test(block))?.id;
}
