import { describe, expect, it } from 'vitest';
import { findXmlForbidden, stripXmlForbidden } from '../../src/domain/xml-text.ts';

describe('characters XML 1.0 forbids', () => {
  it('finds C0 controls but tab, LF and CR; U+FFFE, U+FFFF; unpaired surrogates', () => {
    const forbidden = [...Array.from({ length: 32 }, (_, c) => c).filter((c) => c !== 9 && c !== 10 && c !== 13), 0xfffe, 0xffff, 0xd800, 0xdbff, 0xdc00, 0xdfff];
    for (const code of forbidden) {
      expect(findXmlForbidden(`ab${String.fromCharCode(code)}c`), code.toString(16)).toEqual({ index: 2, codePoint: `U+${code.toString(16).toUpperCase().padStart(4, '0')}` });
    }
  });

  it('passes everything XML allows: tab and line breaks, C1 controls, astral pairs, U+FFFD', () => {
    const allowed = 'a\tb\nc\rd \u0080\u009f \u{1F3E0} \ufffd \ud7ff \ue000 é';
    expect(findXmlForbidden(allowed)).toBeUndefined();
    expect(stripXmlForbidden(allowed)).toBe(allowed);
  });

  it('strips every forbidden character and keeps the rest', () => {
    expect(stripXmlForbidden('\u0000A\ud800B\u{1F3E0}\udc00C\uffff\u0008')).toBe('AB\u{1F3E0}C');
  });
});
