import { describe, expect, it } from 'vitest';
import { FROZEN_GROUP, isTeamWritten, nearDuplicates, readAllLabelled, readLabelled } from '../../../scripts/absa-data.ts';
import type { GroupedText } from '../../../scripts/absa-data.ts';
import { ASPECT_IDS, SENTIMENTS } from '../../../src/domain/schemas/aspects.ts';

// The labelled data the analyzer is trained and measured on (data/absa/README.md).
const all = readAllLabelled();
const scored = readLabelled('train.jsonl');
const team = all.filter((s) => isTeamWritten(s.group));

const text = (id: string, t: string): GroupedText => ({ id, text: t, labels: [], overall: 'neutral', group: 'x' });

describe('labelled data', () => {
  it('every line has known aspects and sentiments, one label per aspect, and ids unique in its file', () => {
    const problems: string[] = [];
    const ids = new Set<string>();
    for (const s of all) {
      if (ids.has(`${s.group}/${s.id}`)) problems.push(`${s.group}/${s.id}: repeated id`);
      ids.add(`${s.group}/${s.id}`);
      if (!(SENTIMENTS as readonly string[]).includes(s.overall)) problems.push(`${s.group}/${s.id}: overall ${s.overall}`);
      const aspects = s.labels.map((l) => l.aspect);
      if (new Set(aspects).size !== aspects.length) problems.push(`${s.group}/${s.id}: an aspect twice`);
      for (const l of s.labels) {
        if (!(ASPECT_IDS as readonly string[]).includes(l.aspect)) problems.push(`${s.group}/${s.id}: aspect ${l.aspect}`);
        if (!(SENTIMENTS as readonly string[]).includes(l.sentiment)) problems.push(`${s.group}/${s.id}: sentiment ${l.sentiment}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the team-written files are training text only: no writer of train.jsonl among them', () => {
    expect(team.length).toBeGreaterThan(5000);
    expect(new Set(scored.map((s) => s.group))).toEqual(new Set(['ga', 'gb', 'gc', 'gd', 'ge', FROZEN_GROUP]));
    expect(team.some((s) => /^g[a-f]$/.test(s.group))).toBe(false);
  });

  it('no team-written sentence is a near copy of a sentence of the scored writers', () => {
    const found = nearDuplicates(team, scored).map((d) => `${d.candidate.group}/${d.candidate.id} ~ ${d.scored.id} (${d.jaccard.toFixed(2)})`);
    expect(found).toEqual([]);
  });

  it('nearDuplicates finds sentences sharing most of their words, and only those', () => {
    const scoredOnes = [text('s1', 'Dumpster on site Monday, picked up Friday.'), text('s2', 'The adjuster was fair with us.')];
    const found = nearDuplicates([text('c1', 'Dumpster delivered Monday, picked up Friday.'), text('c2', 'The crew was polite.')], scoredOnes);
    expect(found.map((d) => [d.candidate.id, d.scored.id])).toEqual([['c1', 's1']]);
    expect(found[0]?.jaccard).toBeCloseTo(5 / 8, 10);
  });
});
