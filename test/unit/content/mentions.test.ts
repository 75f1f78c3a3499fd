import { describe, expect, it } from 'vitest';
import { createMentionFinder } from '../../../src/domain/mentions.ts';
import { businessSchema } from '../../../src/domain/content/schema.ts';

const business = businessSchema.parse({
  name: 'B',
  url: 'https://b.example',
  services: [
    { id: 'gutters', name: 'Gutter installation', aliases: ['gutters', 'gutter guards'] },
    { id: 'roof-repair', name: 'Roof repair', aliases: ['leak repair'] },
  ],
  technicians: [
    { id: 'zoe-lund', name: 'Zoë Lund', aliases: ['Zoë'] },
    { id: 'sam-ortiz', name: 'Sam Ortiz', aliases: ['Sam'] },
  ],
});
const finder = createMentionFinder(business);
const ids = (list: { id: string }[]) => list.map((e) => e.id);

describe('mention finder', () => {
  it('finds names and aliases as whole words, case- and accent-insensitive', () => {
    expect(ids(finder.technicians([], 'ZOE was great'))).toEqual(['zoe-lund']);
    expect(ids(finder.technicians([], 'zoë lund and sam came'))).toEqual(['zoe-lund', 'sam-ortiz']);
    expect(ids(finder.technicians([], 'Samantha and Zoey'))).toEqual([]);
    expect(ids(finder.services([], 'New GUTTERS, and a leak   repair'))).toEqual(['gutters', 'roof-repair']);
    expect(ids(finder.services([], 'guttersnipe'))).toEqual([]);
  });

  it('adds tagged ids and keeps business.json order without duplicates', () => {
    expect(ids(finder.technicians(['sam-ortiz'], 'Zoë and Sam'))).toEqual(['zoe-lund', 'sam-ortiz']);
  });
});
