import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { businessSchema } from '../../../src/domain/content/schema.ts';
import { preparerFor, prepareReviews, type PrepareSetup } from '../../../src/build/review-workers.ts';

const fixture = path.resolve(import.meta.dirname, '../../fixtures/small');
const business = businessSchema.parse(JSON.parse(readFileSync(path.join(fixture, 'business.json'), 'utf8')));
const texts = ['a-one', 'b-two', 'c-three', 'd-hidden', 'e-five'].map((id) => readFileSync(path.join(fixture, `reviews/${id}.md`), 'utf8'));

describe('preparing reviews over worker threads', () => {
  it('gives, in file order, what the calling thread gives, whatever the scheduling', { timeout: 120_000 }, async () => {
    // More than one batch, so the work is spread over the workers.
    const files = Array.from({ length: 4_500 }, (_, i) => ({ path: `reviews/r${String(i).padStart(5, '0')}.md`, text: texts[i % texts.length] as string }));
    files.push({ path: 'reviews/bad.md', text: '---\nrating: 9\n---\n' });
    const setup: PrepareSetup = { business, extension: { aspects: { communication: { cues: ['appointment'] } } }, publish: true };
    const prepared = await prepareReviews(files, setup);
    expect(prepared).toEqual(files.map(preparerFor(setup)));
    expect(prepared.at(-1)?.problems.length).toBeGreaterThan(0);
    const record = JSON.parse(prepared[1]?.published?.json ?? '{}') as { aspects: { aspect: string }[] };
    expect(record.aspects.map((a) => a.aspect)).toContain('communication');
  });
});
