// html-encoding-sniffer ships no typings; this is its documented call (README, v7).
declare module 'html-encoding-sniffer' {
  interface SniffOptions {
    xml?: boolean;
    transportLayerEncodingLabel?: string;
    /** Returned when nothing in the bytes or the transport names an encoding. */
    defaultEncoding?: string;
    maxPrescanBytes?: number;
  }
  /** The canonical WHATWG encoding name for the bytes. */
  export default function htmlEncodingSniffer(bytes: Uint8Array, options?: SniffOptions): string;
}
