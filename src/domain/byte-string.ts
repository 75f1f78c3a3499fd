/**
 * Byte strings: UTF-8 bytes held in a JS string, one character per byte (a
 * Latin-1 decoding). V8 keeps such a string at one byte a character, so joining
 * byte strings and writing the result only copies bytes. Real text does not stay
 * so cheap: one typographic apostrophe in a review makes every string that review
 * is joined into two bytes a character, and the answer must then be transcoded to
 * UTF-8 on the way out; measured on a search page, that was 2 to 2.5 times the CPU
 * of the whole answer. The catalog keeps each review's JSON as a byte string, and
 * the answers built from it say so (`body: { bytes }`, see src/server/http/answer.ts)
 * so that they are written as Latin-1, which gives back the UTF-8 bytes.
 *
 * The brand keeps them from being mixed with text by accident: ASCII is the same
 * in both, so ASCII text may be passed through `ascii` (numbers, JSON punctuation),
 * anything else through `toByteString`; the `bytes` template only takes byte strings.
 */

export type ByteString = string & { readonly __bytes: 'utf8 in latin1' };

export function toByteString(text: string): ByteString {
  return Buffer.from(text, 'utf8').toString('latin1') as ByteString;
}

export function fromByteString(bytes: ByteString): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Text known to be ASCII (the caller's promise: digits, JSON punctuation, ids it made), as a byte string. */
export function ascii(text: string): ByteString {
  return text as ByteString;
}

/** A template of ASCII literals around byte strings, e.g. bytes`{"result":${json}}`, as a byte string. */
export function bytes(literals: TemplateStringsArray, ...values: ByteString[]): ByteString {
  let out = literals[0] as string;
  for (let i = 0; i < values.length; i++) out += (values[i] as string) + (literals[i + 1] as string);
  return out as ByteString;
}

/** Byte strings joined: still a byte string. */
export function joinBytes(parts: readonly ByteString[]): ByteString {
  return parts.join('') as ByteString;
}
