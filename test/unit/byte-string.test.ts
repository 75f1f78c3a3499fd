import { describe, expect, it } from 'vitest';
import { ascii, bytes, fromByteString, joinBytes, toByteString } from '../../src/domain/byte-string.ts';

describe('byte strings', () => {
  const texts = ['plain ASCII', 'Zoë’s “new” roof — 5★', 'emoji 🏠 and a lone \ud800 surrogate', ''];

  it('hold exactly the UTF-8 bytes, one character each', () => {
    for (const text of texts) {
      const held = toByteString(text);
      expect(Buffer.from(held, 'latin1').equals(Buffer.from(text))).toBe(true);
      expect(held.length).toBe(Buffer.byteLength(text));
      expect([...held].every((char) => char.charCodeAt(0) < 256)).toBe(true);
    }
  });

  it('give the text back, but for a lone surrogate, which UTF-8 cannot hold', () => {
    for (const text of texts.slice(0, 2)) expect(fromByteString(toByteString(text))).toBe(text);
    expect(fromByteString(toByteString('a\ud800b'))).toBe('a\ufffdb');
  });

  it('join and template into byte strings of the joined text', () => {
    const [first, second] = [toByteString('Zoë'), toByteString('’s roof')];
    expect(fromByteString(joinBytes([first, ascii(', '), second]))).toBe('Zoë, ’s roof');
    expect(fromByteString(bytes`{"a":"${first}","b":"${second}"}`)).toBe('{"a":"Zoë","b":"’s roof"}');
  });
});
