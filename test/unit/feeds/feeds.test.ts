import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import jsonFeedSchema from 'jsonfeed-schema/schema-v1.1.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { atomFeed, xmlText } from '../../../src/domain/feeds/atom.ts';
import { jsonFeed } from '../../../src/domain/feeds/json-feed.ts';
import { siteFrom } from '../../support/site.ts';

const many = Array.from({ length: 60 }, (_, i) => ({
  id: `r${String(i).padStart(3, '0')}`,
  date: `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
  rating: (i % 5) + 1,
}));

describe('JSON Feed 1.1', () => {
  const feed = jsonFeed(siteFrom([...many, { id: 'hidden', date: '2030-01-01', verified: false }]));

  it('validates against the JSON Feed 1.1 schema with the 1.1 version string', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(jsonFeedSchema);
    expect(validate(feed), JSON.stringify(validate.errors)).toBe(true);
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
  });

  it('holds the 50 newest verified reviews, newest first, and never an unverified one', () => {
    expect(feed.items).toHaveLength(50);
    const expected = [...many].sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1)).slice(0, 50);
    expect(feed.items.map((item) => item.id)).toEqual(expected.map((r) => r.id));
    expect(feed.items.some((item) => item.id === 'hidden')).toBe(false);
  });

  it("carries the owner's response in content_text, as the Atom entry does", () => {
    const site = siteFrom([{ id: 'r', date: '2024-02-01', text: 'Leak fixed.', response: { date: '2024-03-05', text: 'Thanks, Ann!' } }], 'Smith Roofing');
    const [item] = jsonFeed(site).items;
    expect(item?.content_text).toBe('Leak fixed.\n\nResponse from Smith Roofing (2024-03-05):\nThanks, Ann!');
    expect(item?.date_modified).toBe('2024-03-05T00:00:00Z');
  });

  it('announces its hub and carries the review extension', () => {
    expect(feed.hubs).toEqual([{ type: 'WebSub', url: 'https://site.example/api/websub/hub' }]);
    expect(feed.feed_url).toBe('https://site.example/api/feed.json');
    expect(feed.items[0]?._review).toMatchObject({ verified: true, services: [], technicians: [], service_area: null });
  });
});

describe('Atom', () => {
  const site = siteFrom(
    [
      { id: 'a', date: '2024-01-01', title: 'Tags <b>&</b> "quotes" ]]> end', text: 'Body with 2 < 3 & ]]> inside.' },
      { id: 'b', date: '2024-02-01', response: { date: '2024-03-05', text: 'Thanks!' } },
    ],
    'Smith & Sons <Roofing>',
  );
  const xml = atomFeed(site);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as {
    feed: {
      updated: string;
      title: { '#text': string; type: string };
      link: { rel: string; href: string }[];
      entry: { id: string; title: { '#text': string; type: string }; content: { '#text': string; type: string }; updated: string; published: string }[];
    };
  };

  it('parses, with rel="self" and rel="hub" links', () => {
    const links = parsed.feed.link.map((l) => `${l.rel} ${l.href}`);
    expect(links).toContain('self https://site.example/feed.xml');
    expect(links).toContain('hub https://site.example/api/websub/hub');
    expect(parsed.feed.title).toEqual({ '#text': 'Smith & Sons <Roofing>: verified customer reviews', type: 'text' });
  });

  it('dates come from the content, with responses updating their entry', () => {
    expect(parsed.feed.updated).toBe('2024-03-05T00:00:00Z');
    const b = parsed.feed.entry.find((e) => e.id.endsWith('#review-b'));
    expect(b).toMatchObject({ updated: '2024-03-05T00:00:00Z', published: '2024-02-01T00:00:00Z' });
    expect(b?.content['#text']).toContain('<p><strong>Response from Smith &amp; Sons &lt;Roofing&gt; (2024-03-05):</strong></p><p>Thanks!</p>');
  });

  it('titles are plain text, read exactly as typed; markup in reviews stays text', () => {
    const a = parsed.feed.entry.find((e) => e.id.endsWith('#review-a'));
    expect(a?.title).toEqual({ '#text': 'Tags <b>&</b> "quotes" ]]> end', type: 'text' });
    // The content is HTML: the review's own < and & arrive escaped for HTML.
    expect(a?.content.type).toBe('html');
    expect(a?.content['#text']).toContain('<p>Body with 2 &lt; 3 &amp; ]]&gt; inside.</p>');
    expect(xml).not.toContain('CDATA');
  });

  it('drops characters XML forbids, lone surrogates included, and keeps real pairs', () => {
    // The content checks refuse these already; the writer must never emit them anyway.
    expect(xmlText('A\uFFFEB\u0001 \u{1F600} \uD800x \uDC00y <&>"')).toBe('AB \u{1F600} x y &lt;&amp;&gt;&quot;');
  });

  it('is the same bytes for the same content', () => {
    expect(atomFeed(site)).toBe(xml);
  });
});
