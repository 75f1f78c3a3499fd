import { describe, expect, it } from 'vitest';
import { formatProblems, validateContent, type ContentFiles } from '../../../src/domain/content/validate.ts';

const business = {
  path: 'business.json',
  text: JSON.stringify({
    name: 'Test Roofing',
    url: 'https://test.example',
    service_areas: [{ id: 'north', name: 'North' }],
    services: [{ id: 'gutters', name: 'Gutters', aliases: ['gutter guards'] }],
    technicians: [{ id: 'ann-lee', name: 'Ann Lee', aliases: ['Ann'] }],
  }),
};

function review(name: string, frontMatter: string, body = 'Good work.'): { path: string; text: string } {
  return { path: `reviews/${name}.md`, text: `---\n${frontMatter}\n---\n${body}\n` };
}

const good = 'author: A\nrating: 5\ndate: 2024-03-12\nverified: true\nverification: invoice';

describe('validateContent', () => {
  it('accepts good content and keeps dates as written', () => {
    const result = validateContent({ business, reviews: [review('ok', `${good}\nservices: [gutters]\ntechnicians: [ann-lee]`)] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.content.reviews[0]).toMatchObject({ id: 'ok', date: '2024-03-12', rating: 5, services: ['gutters'] });
  });

  it('reports every bad file, field and reason in one run', () => {
    const files: ContentFiles = {
      business,
      reviews: [
        review('rating-seven', good.replace('rating: 5', 'rating: 7')),
        review('impossible-date', good.replace('2024-03-12', '2024-02-30')),
        review('unknown-ids', `${good}\nservices: [roofing]\ntechnicians: [bob]\nservice_area: south`),
        review('missing-author', good.replace('author: A\n', '')),
        review('empty-body', good, '   '),
        review('typo-field', `${good}\ntechnician: [ann-lee]`),
        review('late-response', `${good}\nresponse:\n  date: 2024-03-01\n  text: Thanks`),
        review('Bad_Name', good),
      ],
    };
    // A duplicate id: the same file name in another folder listing.
    files.reviews.push({ path: 'reviews/sub/rating-seven.md', text: files.reviews[0]!.text });
    const result = validateContent(files);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const seen = result.problems.map((p) => `${p.file} ${p.field ?? '-'}: ${p.message}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        'reviews/rating-seven.md rating: must be a whole number from 1 to 5; got 7',
        'reviews/impossible-date.md date: must be a real calendar date written YYYY-MM-DD; got "2024-02-30"',
        expect.stringMatching(/^reviews\/unknown-ids\.md services\[0\]: unknown id "roofing"; business.json defines "gutters"$/),
        expect.stringMatching(/^reviews\/unknown-ids\.md technicians\[0\]: unknown id "bob"/),
        expect.stringMatching(/^reviews\/unknown-ids\.md service_area: unknown id "south"/),
        'reviews/missing-author.md author: is required',
        expect.stringMatching(/^reviews\/empty-body\.md body: is empty/),
        'reviews/typo-field.md -: unknown field(s): technician',
        expect.stringMatching(/^reviews\/late-response\.md response\.date: 2024-03-01 is before/),
        expect.stringMatching(/^reviews\/Bad_Name\.md -: file name "Bad_Name" is not a valid review id/),
        expect.stringMatching(/^reviews\/sub\/rating-seven\.md -: duplicate review id "rating-seven"/),
      ]),
    );
    expect(formatProblems(result.problems)).toMatch(/^\d+ problems in the content:\n/);
  });

  it('tells everything wrong in one file at once: schema, references and a future date', () => {
    const wrong = 'author: A\nrating: 6\ndate: 2026-12-01\nverified: yes\nverification: invoice\nservices: [roofing]\ntechnicians: [bob]';
    const result = validateContent({ business, reviews: [review('all-wrong', wrong)] }, { now: new Date('2026-11-29T12:00:00Z') });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(formatProblems(result.problems).split('\n')).toEqual([
      '5 problems in the content:',
      '  reviews/all-wrong.md › rating: must be a whole number from 1 to 5; got 6',
      '  reviews/all-wrong.md › verified: must be true or false; got "yes"',
      '  reviews/all-wrong.md › services[0]: unknown id "roofing"; business.json defines "gutters"',
      '  reviews/all-wrong.md › technicians[0]: unknown id "bob"; business.json defines "ann-lee"',
      '  reviews/all-wrong.md › date: 2026-12-01 is in the future; a date may be at most today, 2026-11-29 (UTC)',
    ]);
    const dated = validateContent({ business, reviews: [review('late', good.replace('2024-03-12', '2026-11-30'))] }, { now: new Date('2026-11-29T12:00:00Z') });
    expect(dated.ok ? [] : dated.problems.map((p) => `${p.field}: ${p.message}`)).toEqual(['date: 2026-11-30 is in the future; a date may be at most today, 2026-11-29 (UTC)']);
  });

  it('reads today in the business’s time zone, and checks the response date too', () => {
    const inChicago = { ...business, text: business.text.replace('"name"', '"time_zone":"America/Chicago","name"') };
    const now = new Date('2026-11-30T03:00:00Z'); // 29 November, 21:00 in Chicago
    const late = validateContent({ business: inChicago, reviews: [review('late', good.replace('2024-03-12', '2026-11-30'))] }, { now });
    expect(late.ok ? [] : late.problems.map((p) => p.message)).toEqual(['2026-11-30 is in the future; a date may be at most today, 2026-11-29 (America/Chicago)']);
    const answered = validateContent({ business, reviews: [review('r', `${good}\nresponse:\n  date: 2026-12-25\n  text: Thanks`)] }, { now });
    expect(answered.ok ? [] : answered.problems.map((p) => p.field)).toEqual(['response.date']);
    expect(validateContent({ business, reviews: [review('today', good.replace('2024-03-12', '2026-11-30'))] }, { now }).ok).toBe(true);
  });

  it('reads unquoted and quoted dates alike, and rejects a date YAML would turn into another', () => {
    const quoted = validateContent({ business, reviews: [review('q', good.replace('2024-03-12', '"2024-03-12"'))] });
    expect(quoted.ok).toBe(true);
    const leap = validateContent({ business, reviews: [review('leap', good.replace('2024-03-12', '2023-02-29'))] });
    expect(leap.ok).toBe(false);
  });

  it('explains a missing business.json, bad JSON and broken front matter', () => {
    const missing = validateContent({ business: null, reviews: [] });
    expect(missing.ok || missing.problems[0]).toMatchObject({ file: 'business.json', message: expect.stringMatching(/missing/) });
    const bad = validateContent({ business: { path: 'business.json', text: '{ nope' }, reviews: [] });
    expect(bad.ok || bad.problems[0]?.message).toMatch(/not valid JSON/);
    const broken = validateContent({ business, reviews: [{ path: 'reviews/x.md', text: 'no front matter' }] });
    expect(broken.ok || broken.problems[0]?.message).toMatch(/front matter/);
    const yaml = validateContent({ business, reviews: [review('y', 'author: [unclosed')] });
    expect(yaml.ok || yaml.problems[0]?.message).toMatch(/not valid YAML/);
  });

  it('rejects duplicate ids inside business.json', () => {
    const text = JSON.stringify({ ...JSON.parse(business.text), services: [{ id: 'a', name: 'A' }, { id: 'a', name: 'B' }] });
    const result = validateContent({ business: { path: 'business.json', text }, reviews: [] });
    expect(result.ok || result.problems).toEqual([{ file: 'business.json', field: 'services[1].id', message: '"a" is used twice' }]);
  });
});

describe('aspects.json', () => {
  it('is checked with the content: unknown aspects and keys are errors', () => {
    const aspects = { path: 'aspects.json', text: JSON.stringify({ aspects: { chimneys: { cues: ['chimney'] }, cleanup: { cue: ['x'] } } }) };
    const result = validateContent({ business, reviews: [], aspects });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { file: 'aspects.json', field: 'aspects.cleanup', message: 'unknown field(s): cue' },
      { file: 'aspects.json', field: 'aspects', message: 'unknown field(s): chimneys' },
    ]);
  });

  it('a valid extension is kept for the analyzer', () => {
    const aspects = { path: 'aspects.json', text: JSON.stringify({ aspects: { cleanup: { negative: ['glitter everywhere'] } } }) };
    const result = validateContent({ business, reviews: [], aspects });
    expect(result.ok && result.content.aspectVocabulary).toEqual({ aspects: { cleanup: { negative: ['glitter everywhere'] } } });
  });
});
