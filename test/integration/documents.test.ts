import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import jsonFeedSchema from 'jsonfeed-schema/schema-v1.1.json' with { type: 'json' };
import { XMLParser } from 'fast-xml-parser';
import { jsonFeedSchema as ourFeedSchema, reviewsDatasetSchema } from '../../src/domain/schemas/datasets.ts';
import { insightsSchema } from '../../src/domain/schemas/insights.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
});
afterAll(() => server?.stop());

const getJson = async (path: string) => JSON.parse((await rawRequest(server.url + path)).text) as unknown;

describe('published documents as a client reads them', () => {
  it('/reviews.json has the verified reviews only, newest first, with mentions found in the text', async () => {
    const dataset = reviewsDatasetSchema.parse(await getJson('/reviews.json'));
    expect(dataset.reviews.map((r) => r.id)).toEqual(['b-two', 'c-three', 'a-one', 'e-five']);
    const b = dataset.reviews[0];
    // Zoe is named only in the text, gutters only as an alias.
    expect(b?.technicians).toEqual([{ id: 'zoe-lund', name: 'Zoë Lund' }]);
    expect(b?.services).toEqual([{ id: 'gutters', name: 'Gutter installation' }]);
    expect(dataset.reviews.find((r) => r.id === 'a-one')?.text).toBe(
      'Sam found the leak around the chimney flashing and fixed it the same day.\n\nNot a single nail left in the driveway.',
    );
    expect(dataset.aggregate_rating).toMatchObject({ review_count: 4, rating_value: 3.5 });
  });

  it('every review carries aspects found by the analyzer', async () => {
    const dataset = reviewsDatasetSchema.parse(await getJson('/reviews.json'));
    const a = dataset.reviews.find((r) => r.id === 'a-one');
    expect(a?.aspects).toContainEqual(expect.objectContaining({ aspect: 'cleanup', sentiment: 'positive', excerpt: 'Not a single nail left in the driveway.' }));
  });

  it('/insights.json matches its schema and has every group', async () => {
    const insights = insightsSchema.parse(await getJson('/insights.json'));
    expect(insights.aspects.map((a) => a.aspect)).toHaveLength(10);
    expect(insights.entities.technicians.map((t) => t.id)).toEqual(['zoe-lund', 'sam-ortiz']);
    expect(insights.generated_from).toEqual({ review_count: 4, newest_review_date: '2024-05-01' });
    expect(insights.faq.length).toBeGreaterThan(0);
  });

  it('/api/feed.json is JSON Feed 1.1 by the official schema and by ours', async () => {
    const feed = await getJson('/api/feed.json');
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    expect(ajv.validate(jsonFeedSchema, feed), JSON.stringify(ajv.errors)).toBe(true);
    expect(ourFeedSchema.parse(feed).version).toBe('https://jsonfeed.org/version/1.1');
  });

  it('/feed.xml is Atom with self and hub links and one entry per verified review', async () => {
    const xml = (await rawRequest(`${server.url}/feed.xml`)).text;
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as {
      feed: { xmlns: string; link: { rel: string; href: string }[]; entry: unknown[] };
    };
    expect(doc.feed.xmlns).toBe('http://www.w3.org/2005/Atom');
    expect(doc.feed.link).toEqual(
      expect.arrayContaining([
        { rel: 'self', type: 'application/atom+xml', href: 'https://reviews.example.test/feed.xml' },
        { rel: 'hub', href: 'https://reviews.example.test/api/websub/hub' },
      ]),
    );
    expect(doc.feed.entry).toHaveLength(4);
    expect(xml).not.toContain('must never appear');
  });

  it('no document mentions the unverified review', async () => {
    for (const path of ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml', '/', '/insights', '/developers']) {
      const res = await rawRequest(server.url + path);
      expect(res.text, path).not.toContain('d-hidden');
      expect(res.text, path).not.toContain('Not Published');
    }
  });
});
