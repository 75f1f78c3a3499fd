/**
 * The labelled sentences in data/absa/ (see its README), for the training script and the tests
 * that measure the analyzer. Each sentence carries a `group`: its writer for train.jsonl (the id
 * prefix, ga…gf), else its file's name. Groups are the unit of cross-validation and of the
 * frozen split, so no writer's style is both trained and scored on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { LabelledText } from '../src/domain/insights/absa/train.ts';

export interface GroupedText extends LabelledText {
  readonly group: string;
}

export const DATA_DIR = new URL('../data/absa/', import.meta.url);

/** The writer scored only at the end (never tuned on): the last of the six. */
export const FROZEN_GROUP = 'gf';

/**
 * The files the rules were written or tuned against (the analyzer README, "Evaluation"): the dev
 * set, the holdouts (each tuned on after its one blind score) and the work split of the fresh
 * set. fresh-frozen and train.jsonl were never tuned on.
 */
export const RULES_TUNED_ON: ReadonlySet<string> = new Set([
  'dev', 'holdout', 'holdout2', 'holdout3', 'holdout4', 'holdout5', 'holdout6', 'holdout7', 'fresh-work',
]);

export function readLabelled(file: string): GroupedText[] {
  const name = file.replace(/\.jsonl$/, '');
  return readFileSync(new URL(file, DATA_DIR), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const o = JSON.parse(l) as { id: string | number; text: string; labels: LabelledText['labels']; overall: string };
      const id = String(o.id);
      const group = name === 'train' ? id.slice(0, 2) : name;
      return { id, text: o.text, labels: o.labels, overall: o.overall, group, rulesTunedOn: RULES_TUNED_ON.has(name) };
    });
}

/** Every labelled sentence, files in name order, lines in file order. */
export function readAllLabelled(): GroupedText[] {
  return readdirSync(DATA_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap(readLabelled);
}

/** The files written for training only (`team-*.jsonl`, see data/absa/README.md): never scored. */
export function isTeamWritten(group: string): boolean {
  return group.startsWith('team-');
}

/** Lower-cased words and numbers of a sentence, as a set (for `nearDuplicates`). */
function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9$]+/g) ?? []);
}

/**
 * Pairs of sentences, one of `candidates` and one of `scored`, whose word sets overlap by at least
 * `threshold` (Jaccard). Training text that close to a scored writer's sentence would flatter the
 * measurement, so the team-written files are kept free of them (data/absa/README.md).
 */
export function nearDuplicates(
  candidates: readonly GroupedText[],
  scored: readonly GroupedText[],
  threshold = 0.6,
): { readonly candidate: GroupedText; readonly scored: GroupedText; readonly jaccard: number }[] {
  const scoredSets = scored.map((s) => wordSet(s.text));
  const byWord = new Map<string, number[]>();
  for (const [i, set] of scoredSets.entries()) {
    for (const w of set) {
      const list = byWord.get(w);
      if (list === undefined) byWord.set(w, [i]);
      else list.push(i);
    }
  }
  const found: { candidate: GroupedText; scored: GroupedText; jaccard: number }[] = [];
  for (const c of candidates) {
    const set = wordSet(c.text);
    const shared = new Map<number, number>();
    for (const w of set) for (const i of byWord.get(w) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
    for (const [i, n] of shared) {
      const jaccard = n / (set.size + (scoredSets[i] as Set<string>).size - n);
      if (jaccard >= threshold) found.push({ candidate: c, scored: scored[i] as GroupedText, jaccard });
    }
  }
  return found;
}
