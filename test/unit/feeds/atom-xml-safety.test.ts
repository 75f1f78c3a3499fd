/**
 * The Atom writer on its own, without the content check in front: whatever text
 * reaches it, the feed is well-formed XML 1.0 for a strict parser (saxes, which
 * refuses forbidden characters where fast-xml-parser's validator lets them by).
 */
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import type { SiteContent } from '../../../src/domain/content/validate.ts';
import { atomFeed } from '../../../src/domain/feeds/atom.ts';
import { buildSite } from '../../../src/domain/site.ts';

/** Every well-formedness error a strict XML 1.0 parser finds, and the text of each element. */
function parseStrictly(xml: string): { errors: string[]; texts: Map<string, string[]> } {
  const parser = new SaxesParser({ xmlns: true });
  const errors: string[] = [];
  const texts = new Map<string, string[]>();
  const open: string[] = [];
  parser.on('error', (error) => errors.push(error.message));
  parser.on('opentag', (tag) => open.push(tag.local));
  parser.on('closetag', () => open.pop());
  const addText = (text: string) => {
    const name = open.at(-1) ?? '';
    texts.set(name, [...(texts.get(name) ?? []), text]);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.write(xml).close();
  return { errors, texts };
}

const FORBIDDEN = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\ufffe', '\uffff', '\ud800', '\udfff'];

function hostileSite(): ReturnType<typeof buildSite> {
  const dirty = (text: string, i: number) => `${text}${FORBIDDEN[i % FORBIDDEN.length]}${text}${FORBIDDEN[(i + 5) % FORBIDDEN.length]}`;
  const content: SiteContent = {
    business: { name: dirty('Roof & <Co> "Ltd"', 1), url: 'https://roof.example', service_areas: [], services: [], technicians: [] },
    reviews: FORBIDDEN.map((_, i) => ({
      id: `r${i}`,
      author: dirty('Ann', i),
      rating: 5,
      date: `2024-01-${String(i + 1).padStart(2, '0')}`,
      verified: true,
      verification: 'invoice',
      services: [],
      technicians: [],
      title: dirty('Title ]]> <b>', i + 2),
      body: dirty('Body\n\nwith 🏠 and é', i + 3),
      response: { date: '2024-02-01', text: dirty('Thanks', i + 4) },
    })),
    faq: [],
    summary: null,
    aspectVocabulary: null,
  };
  return buildSite(content, 'https://site.example', () => []);
}

describe('Atom feed: well-formed whatever text reaches the writer', () => {
  const xml = atomFeed(hostileSite());
  const { errors, texts } = parseStrictly(xml);

  it('parses without a single error in a strict XML 1.0 parser', () => {
    expect(errors).toEqual([]);
  });

  it('drops only the forbidden characters: the rest of each text is kept', () => {
    expect(texts.get('name')).toContain('AnnAnn');
    expect(texts.get('title')).toContain('Roof & <Co> "Ltd"Roof & <Co> "Ltd": verified customer reviews');
    expect(texts.get('title')?.some((t) => t.includes('Title ]]> <b>Title ]]> <b>'))).toBe(true);
    expect(texts.get('content')?.some((t) => t.includes('<p>with 🏠 and éBody</p>'))).toBe(true);
  });
});
