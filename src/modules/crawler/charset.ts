import { TextDecoder } from 'node:util';
import sniffHtmlEncoding from 'html-encoding-sniffer';

/** The HTML standard's prescan reads the first 1,024 bytes for a <meta> charset. */
const PRESCAN_BYTES = 1024;
const NOTHING_DECLARED = '';

/** The charset parameter of a Content-Type header, or undefined. */
export function headerCharset(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1];
}

/** A WHATWG encoding name for a label, or null when the label names none. */
function encodingName(label: string): string | null {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

export interface BodyDecoder {
  /** Text decoded so far ('' while the first bytes are held back for sniffing). */
  push(bytes: Buffer): string;
  end(): string;
  /** What the response used and what it declared, known once the first text is out. */
  readonly charset: CharsetReport;
}

export interface CharsetReport {
  /** The encoding the body was decoded with (WHATWG name, lower case). */
  used: string;
  /** From the Content-Type header, when it names a known encoding. */
  header: string | null;
  /** From the page itself (byte order mark or <meta charset> / http-equiv), when it names one. */
  page: string | null;
}

/**
 * Decodes an HTML body as a browser does (HTML standard, "determining the character
 * encoding"): a byte order mark first, then the Content-Type charset, then a <meta> in the
 * first 1,024 bytes, else UTF-8 (the standard allows a locale default; UTF-8 is what an
 * undeclared page on today's web almost always is). The sniffing is html-encoding-sniffer,
 * the decoding Node's TextDecoder with full ICU (EUC-KR, Shift_JIS, GB18030, ...). Other
 * text (robots.txt, JSON, XML) decodes by its header charset or as UTF-8.
 */
/** The held chunks as one buffer: most pages' first chunk holds the whole prescan, and is read as it is (no 30 KB copy, twice). */
const joined = (held: Buffer[]) => (held.length === 1 ? held[0]! : Buffer.concat(held));

export function createBodyDecoder(contentType: string): BodyDecoder {
  const isHtml = /html/i.test(contentType);
  const label = headerCharset(contentType);
  const header = label ? encodingName(label) : null;
  const charset: CharsetReport = { used: header ?? 'utf-8', header, page: null };
  let decoder: TextDecoder | undefined = isHtml ? undefined : new TextDecoder(charset.used);
  let held: Buffer[] = [];
  let heldBytes = 0;

  const start = (): TextDecoder => {
    const prefix = joined(held);
    const declared = sniffHtmlEncoding(prefix, { defaultEncoding: NOTHING_DECLARED, maxPrescanBytes: PRESCAN_BYTES });
    charset.page = declared === NOTHING_DECLARED ? null : encodingName(declared);
    const chosen = sniffHtmlEncoding(prefix, { transportLayerEncodingLabel: label, defaultEncoding: 'utf-8' });
    charset.used = encodingName(chosen) ?? 'utf-8';
    return new TextDecoder(charset.used);
  };

  return {
    charset,
    push(bytes) {
      if (decoder) return decoder.decode(bytes, { stream: true });
      held.push(bytes);
      heldBytes += bytes.length;
      if (heldBytes < PRESCAN_BYTES) return '';
      decoder = start();
      const text = decoder.decode(joined(held), { stream: true });
      held = [];
      return text;
    },
    end() {
      if (!decoder) {
        decoder = start();
        const text = decoder.decode(joined(held));
        held = [];
        return text;
      }
      return decoder.decode();
    },
  };
}
