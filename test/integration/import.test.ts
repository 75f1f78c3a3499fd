/**
 * `npm run import` and `npm run verify` as the owner runs them: the real commands on
 * a temporary content folder, importing the fixtures of test/fixtures/import (written
 * from Google's documented Review object and a spreadsheet), twice and then grown.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { importedReviewId } from '../../src/domain/import/imported-review.ts';
import { PROJECT_ROOT } from '../support/build.ts';

const node = path.join(PROJECT_ROOT, 'node_modules/.bin/node');
const fixtures = path.join(PROJECT_ROOT, 'test/fixtures/import');
const contentDir = path.join(PROJECT_ROOT, 'tmp/test-content/import');

function run(script: string, ...args: string[]) {
  const result = spawnSync(node, [`scripts/${script}.ts`, ...args], { cwd: PROJECT_ROOT, env: { ...process.env, CONTENT_DIR: contentDir }, encoding: 'utf8' });
  const summary = /(\d+) added, (\d+) updated, (\d+) skipped, (\d+) errors?/.exec(result.stdout);
  const counts = summary && { added: Number(summary[1]), updated: Number(summary[2]), skipped: Number(summary[3]), errors: Number(summary[4]) };
  return { ...result, counts };
}
const importFile = (kind: string, name: string, ...flags: string[]) => run('import', kind, path.join(fixtures, name), ...flags);
const files = () => readdirSync(path.join(contentDir, 'reviews')).sort();
const read = (id: string) => readFileSync(path.join(contentDir, 'reviews', `${id}.md`), 'utf8');
const googleId = (n: number) => importedReviewId({ source: 'google', sourceId: `AbFvOqnX3k_Ld9-0${n}` });
const sheetId = (n: number) => importedReviewId({ source: 'sheet', sourceId: `s-${n}` });

beforeEach(() => {
  rmSync(contentDir, { recursive: true, force: true });
  mkdirSync(path.join(contentDir, 'reviews'), { recursive: true });
  cpSync(path.join(fixtures, 'business.json'), path.join(contentDir, 'business.json'));
});
afterAll(() => rmSync(contentDir, { recursive: true, force: true }));

describe('npm run import -- google', () => {
  it('imports a reviews.list page, then a grown Takeout export, adding and updating only what changed', () => {
    const first = importFile('google', 'google-reviews-list.json');
    expect(first.counts).toEqual({ added: 5, updated: 0, skipped: 1, errors: 1 });
    expect(first.status).toBe(1);
    expect(first.stdout).toMatch(/skipped +review 6 \(id AbFvOqnX3k_Ld9-06\): has a star rating but no comment/);
    expect(first.stderr).toMatch(/review 7 \(id AbFvOqnX3k_Ld9-07\): starRating "STAR_RATING_UNSPECIFIED" is not one of ONE, TWO, THREE, FOUR, FIVE/);
    expect(files()).toEqual([1, 2, 3, 4, 5].map((n) => `${googleId(n)}.md`).sort());
    // Exactly as a person writes a review; the reply is the owner's response, the date the business's day.
    expect(read(googleId(1))).toBe(
      '---\nauthor: José Á.\nrating: 5\ndate: 2024-03-12\nverified: false\nverification: pending\nsource: google\n' +
        'response:\n  date: 2024-03-14\n  text: Thank you, José! We will tell Tomás.\n---\n' +
        'Tomás and his crew replaced the whole roof in a day. Spotless yard afterwards.\n',
    );
    // 03:30 UTC on 2 April is 1 April in America/Chicago (business.json time_zone).
    expect(read(googleId(2))).toMatch(/^author: Chloé D\.\nrating: 4\ndate: 2024-04-01\n/m);
    expect(read(googleId(3))).toMatch(/^author: Bjørn Ø\.\nrating: 3\n/m);
    expect(read(googleId(4))).toMatch(/^author: Madonna\nrating: 2\n/m);
    expect(read(googleId(5))).toMatch(/^author: Anonymous\nrating: 1\n/m);

    const again = importFile('google', 'google-reviews-list.json');
    expect(again.counts).toEqual({ added: 0, updated: 0, skipped: 6, errors: 1 });
    expect(files()).toHaveLength(5);

    const grown = importFile('google', 'google-takeout-later.json');
    expect(grown.counts).toEqual({ added: 1, updated: 1, skipped: 5, errors: 0 });
    expect(grown.status).toBe(0);
    expect(grown.stdout).toContain(`updated ${googleId(2)}: changed: response`);
    expect(read(googleId(2))).toContain('response:\n  date: 2024-04-09\n  text: "Thanks, Chloé. Sorry about the delay: the supplier was late."\n');
    expect(read(googleId(8))).toMatch(/^author: Zoë N\.\n/m);
    expect(importFile('google', 'google-takeout-later.json').counts).toEqual({ added: 0, updated: 0, skipped: 7, errors: 0 });

    const check = run('check-content');
    expect(check.stderr).toBe('');
    expect(check.stdout).toMatch(/^Content OK: 6 reviews \(0 verified and published\)/);
  });

  it('keeps what the owner added to an imported file, and a verification, when it updates it', () => {
    importFile('google', 'google-reviews-list.json');
    const file = path.join(contentDir, 'reviews', `${googleId(2)}.md`);
    writeFileSync(file, read(googleId(2)).replace('verified: false\nverification: pending\n', 'verified: true\nverification: invoice\nservices: [roof-repair]\n'));
    expect(importFile('google', 'google-takeout-later.json').counts?.updated).toBe(1);
    expect(read(googleId(2))).toMatch(/verified: true\nverification: invoice\nservices: \[roof-repair\]\n/);
    expect(read(googleId(2))).toContain('text: "Thanks, Chloé.');
  });

  it('marks every review verified with --verified-by, and not otherwise; --dry-run writes nothing', () => {
    const dry = importFile('google', 'google-reviews-list.json', '--verified-by', 'job-record', '--dry-run');
    expect(dry.counts).toEqual({ added: 5, updated: 0, skipped: 1, errors: 1 });
    expect(dry.stdout).toContain('Dry run (nothing written)');
    expect(files()).toEqual([]);
    const run = importFile('google', 'google-reviews-list.json', '--verified-by', 'job-record');
    expect(run.counts?.added).toBe(5);
    for (const name of files()) expect(readFileSync(path.join(contentDir, 'reviews', name), 'utf8')).toContain('verified: true\nverification: job-record\n');
  });
});

describe('npm run import -- csv', () => {
  it('reports every bad cell by row and column in one run, imports the good rows, then the fixed ones', () => {
    const first = importFile('csv', 'sheet-first.csv', '--column', 'text=What they said');
    expect(first.counts).toEqual({ added: 4, updated: 0, skipped: 1, errors: 4 });
    expect(first.status).toBe(1);
    expect(first.stderr.split('\n').filter(Boolean)).toEqual([
      '  error   row 5, column C (rating): "six" is not allowed: a whole number from 1 to 5',
      '  error   row 6, column D (date): "2024-02-30" is not allowed: a real date written YYYY-MM-DD',
      `  error   row 6, column G (response_date): "" is not allowed: the date of the owner's response, YYYY-MM-DD`,
      '  error   row 7: has 5 cells where the header has 8: a missing or extra separator',
    ]);
    expect(first.stdout).toMatch(/skipped +row 9: has no review text/);
    expect(files()).toEqual([1, 2, 3, 7].map((n) => `${sheetId(n)}.md`).sort());
    expect(read(sheetId(1))).toBe(
      '---\nauthor: Zoë Å.\nrating: 5\ndate: 2024-05-01\nverified: true\nverification: invoice\nsource: spreadsheet\n---\nRoof done in a day; Zoë says "thanks".\n',
    );
    expect(read(sheetId(2))).toMatch(/^author: Łukasz N\.\n(.*\n){2}verified: false\nverification: pending\n/m);
    expect(read(sheetId(3))).toMatch(/^author: Renée O\.\n/m);

    expect(importFile('csv', 'sheet-first.csv', '--column', 'text=What they said').counts).toEqual({ added: 0, updated: 0, skipped: 5, errors: 4 });

    const fixed = importFile('csv', 'sheet-later.csv', '--column', 'text=What they said');
    expect(fixed.counts).toEqual({ added: 3, updated: 1, skipped: 4, errors: 0 });
    expect(fixed.stdout).toContain(`updated ${sheetId(2)}: changed: response`);
    expect(read(sheetId(2))).toContain('response:\n  date: 2024-05-10\n  text: Thank you, Łukasz!\n');
    expect(importFile('csv', 'sheet-later.csv', '--column', 'text=What they said').counts).toEqual({ added: 0, updated: 0, skipped: 8, errors: 0 });

    const check = run('check-content');
    expect(check.stderr).toBe('');
    expect(check.stdout).toMatch(/^Content OK: 7 reviews \(2 verified and published\)/);
  });

  it('names the missing column and how to map it', () => {
    const run = importFile('csv', 'sheet-first.csv');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('has no column for "text"');
    expect(run.stderr).toContain('--column text=<header or letter>');
    expect(files()).toEqual([]);
  });
});

describe('npm run verify', () => {
  it('sets verified and how, leaves the rest of the file, and reports an unknown id', () => {
    importFile('google', 'google-reviews-list.json');
    const before = read(googleId(3));
    const result = run('verify', googleId(3), 'no-such-review', '--by', 'invoice');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`verified  ${googleId(3)} (invoice)`);
    expect(result.stderr).toContain('no-such-review has no file');
    expect(read(googleId(3))).toBe(before.replace('verified: false\nverification: pending\n', 'verified: true\nverification: invoice\n'));
    expect(run('check-content').stdout).toMatch(/^Content OK: 5 reviews \(1 verified and published\)/);
  });
});
