/**
 * Content that attacks the build: YAML alias bombs and deep nesting, characters
 * XML 1.0 forbids in any text field, oversized fields, and file names that would
 * act on a terminal. Each is a problem naming its file and field, never a throw.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/domain/content/limits.ts';
import type { ContentProblem } from '../../../src/domain/content/problem.ts';
import { formatProblems, validateContent, type ContentFile } from '../../../src/domain/content/validate.ts';

const businessData = { name: 'Test Roofing', url: 'https://test.example', services: [{ id: 'gutters', name: 'Gutters' }] };
const business = (data: unknown = businessData): ContentFile => ({ path: 'business.json', text: JSON.stringify(data) });
const good = 'author: A\nrating: 5\ndate: 2024-03-12\nverified: true\nverification: invoice';
const review = (frontMatter: string, body = 'Good work.', name = 'r1'): ContentFile => ({ path: `reviews/${name}.md`, text: `---\n${frontMatter}\n---\n${body}\n` });

function problemsOf(reviews: ContentFile[], businessFile = business()): ContentProblem[] {
  const result = validateContent({ business: businessFile, reviews });
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.problems;
}

describe('YAML that explodes or nests too deep', () => {
  it('an alias bomb is a problem of that file, not an uncaught ReferenceError', () => {
    const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const problems = problemsOf([review(`${good}\n${bomb.join('\n')}`), review(good, 'Fine.', 'r2')]);
    expect(problems).toEqual([{ file: 'reviews/r1.md', field: null, message: expect.stringMatching(/alias/) }]);
  });

  it('deeply nested flow lists are a problem, not a stack overflow', () => {
    const deep = `${good}\nsource: ${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    expect(problemsOf([review(deep)])[0]).toMatchObject({ file: 'reviews/r1.md' });
  });

  it('nesting past the limit in business.json is a problem naming the field', () => {
    const nested = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
    const text = `${JSON.stringify(businessData).slice(0, -1)},"extra":${nested}}`;
    const problems = problemsOf([review(good)], { path: 'business.json', text });
    expect(problems).toContainEqual({ file: 'business.json', field: expect.stringMatching(/^extra(\[0\])+$/), message: expect.stringMatching(/nested too deeply.*32/) });
  });
});

describe('characters XML 1.0 forbids', () => {
  it.each([
    ['author', `author: "Bad\\u0007Actor"`, 'author', 'U+0007 at character 4'],
    ['title', `title: "Tab\\tis fine, bell\\x08 is not"`, 'title', 'U+0008 at character 18'],
    ['response text', `response:\n  date: 2024-03-13\n  text: "Thanks\\u001b[31m"`, 'response.text', 'U+001B at character 7'],
    ['U+FFFE', `source: "x\\uFFFE"`, 'source', 'U+FFFE'],
    ['a lone surrogate', `source: "x\\uD800y"`, 'source', 'U+D800'],
    ['a list item', `services: ["gutters", "a\\u0000"]`, 'services[1]', 'U+0000'],
  ])('in %s: refused, naming field and position', (_what, line, field, message) => {
    const frontMatter = line.startsWith('author') ? good.replace('author: A', line) : `${good}\n${line}`;
    expect(problemsOf([review(frontMatter)])).toContainEqual({ file: 'reviews/r1.md', field, message: expect.stringContaining(message) });
  });

  it('in the body: refused with line and column; tab, CR, LF and emoji pass', () => {
    expect(problemsOf([review(good, 'First line\nsecond \u000c line')])).toContainEqual({
      file: 'reviews/r1.md',
      field: 'body',
      message: expect.stringContaining('U+000C at line 2, column 8'),
    });
    expect(validateContent({ business: business(), reviews: [review(good, 'Tabs\tand\r\nlines, 🏠 and é, ]]> and <b>.')] }).ok).toBe(true);
  });

  it('in business.json, any field: the name, a nested name, one the schema does not know', () => {
    const problems = problemsOf([review(good)], business({ ...businessData, name: 'Roof\u0001Co', services: [{ id: 'gutters', name: 'G\uFFFF' }], tagline: 'x\u0002' }));
    expect(problems.map((p) => p.field)).toEqual(['name', 'services[0].name', 'tagline']);
    expect(problems.every((p) => p.file === 'business.json' && /feeds cannot carry/.test(p.message))).toBe(true);
  });

  it('in faq.md and summary.md', () => {
    const result = validateContent({
      business: business(),
      reviews: [review(good)],
      faq: { path: 'faq.md', text: '## Q?\nA\u0003' },
      summary: { path: 'summary.md', text: 'ok\u0004' },
    });
    expect(result.ok ? [] : result.problems.map((p) => `${p.file} ${p.field}`)).toEqual(['faq.md text', 'summary.md text']);
  });
});

describe('limits on one review', () => {
  it.each([
    ['title', `${good}\ntitle: ${'t'.repeat(LIMITS.titleChars + 1)}`, 'title'],
    ['author', good.replace('author: A', `author: ${'a'.repeat(LIMITS.authorChars + 1)}`), 'author'],
    ['response', `${good}\nresponse:\n  date: 2024-03-13\n  text: ${'r'.repeat(LIMITS.responseTextChars + 1)}`, 'response.text'],
    ['verification', good.replace('verification: invoice', `verification: ${'v'.repeat(LIMITS.noteChars + 1)}`), 'verification'],
  ])('%s over its limit is a problem saying the limit', (_what, frontMatter, field) => {
    expect(problemsOf([review(frontMatter)])).toEqual([{ file: 'reviews/r1.md', field, message: expect.stringMatching(/^must be at most [\d,]+ characters/) }]);
  });

  it('the text over its limit is a problem; at the limit it passes', () => {
    expect(problemsOf([review(good, 'w'.repeat(LIMITS.reviewTextChars + 1))])).toEqual([
      { file: 'reviews/r1.md', field: 'body', message: expect.stringContaining('at most 10,000') },
    ]);
    expect(validateContent({ business: business(), reviews: [review(good, 'w'.repeat(LIMITS.reviewTextChars - 1))] }).ok).toBe(true);
  });
});

describe('the problem list', () => {
  it('escapes control and invisible characters in file names and fields: one problem, one line', () => {
    const problems = problemsOf([review(good, 'x', 'evil\nname\u001b[2J\u202e')]);
    const report = formatProblems(problems);
    expect(report.split('\n')).toHaveLength(2);
    expect(report).toContain('reviews/evil\\nname\\u{1B}[2J\\u{202E}.md');
    expect(report).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202e]/);
  });
});
