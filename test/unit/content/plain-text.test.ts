import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from '../../../src/domain/content/plain-text.ts';

describe('markdownToPlainText', () => {
  it('removes markdown syntax and keeps the characters as typed', () => {
    expect(markdownToPlainText('They were *great* -- "really" great.\n\nSecond **para** with a [link](https://x.example).')).toBe(
      'They were great -- "really" great.\n\nSecond para with a link.',
    );
  });

  it('puts list items on their own lines and drops HTML', () => {
    expect(markdownToPlainText('Pros:\n\n- fair price\n- on time\n\n<b>bold</b> text')).toBe('Pros:\n\nfair price\non time\n\nbold text');
  });

  it('keeps inline code and headings as text', () => {
    expect(markdownToPlainText('# Wow\nUsed `GAF` shingles')).toBe('Wow\n\nUsed GAF shingles');
  });
});
