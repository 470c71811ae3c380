/**
 * UTF-8 as RFC 3629 has it, for the two places bytes become text: request bodies
 * (api/json-text.ts) and files or standard input the CLI reads (cli/io.ts). Both refuse what
 * is not UTF-8 rather than decode it leniently (U+FFFD in place of the bad bytes would be
 * stored as if the user wrote it), and both name where the first bad byte is.
 */

/** Length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlongs, surrogates or code points past U+10FFFF), or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b0 >= 0xe1 && b0 <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** The byte offsets where malformed sequences start (one per bad byte), or [] for well-formed UTF-8. */
export function malformedUtf8Offsets(bytes: Uint8Array): number[] {
  const bad: number[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceLength(bytes, i);
    if (n === 0) {
      bad.push(i);
      i += 1;
    } else i += n;
  }
  return bad;
}

/**
 * Text that is not UTF-8, with where its first bad byte is: its offset (from 0, as xxd, hexdump
 * and Python count), its value, and its line, so the user can find it in an editor.
 */
export class NotUtf8Error extends Error {
  readonly offset: number;

  constructor(bytes: Uint8Array) {
    const offset = malformedUtf8Offsets(bytes)[0] ?? 0;
    let line = 1;
    for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
    const value = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    super(`not valid UTF-8 text: byte 0x${value} at offset ${offset} (line ${line}; offsets count from 0); save it as UTF-8`);
    this.name = 'NotUtf8Error';
    this.offset = offset;
  }
}
