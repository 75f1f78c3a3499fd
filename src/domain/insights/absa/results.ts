/**
 * What the analyzer gives: labels per sentence and per text, and the scale their scores
 * are on (raw evidence squashed into (-1, 1); |score| < 0.25 is neutral).
 */
import type { AspectId, Sentiment } from '../../schemas/aspects.ts';
import { splitSentences } from './sentences.ts';

export interface AspectLabel {
  readonly aspect: AspectId;
  readonly sentiment: Sentiment;
  readonly score: number;
  /** How sure the analyzer is of this (aspect, sentiment) label, in [0, 1]; see README "Confidence". */
  readonly confidence: number;
}

export interface SentenceResult {
  readonly text: string;
  readonly labels: AspectLabel[];
  readonly overall: Sentiment;
  readonly score: number;
}

export interface TextAspect {
  readonly aspect: AspectId;
  readonly sentiment: Sentiment;
  readonly score: number;
  readonly confidence: number;
  readonly excerpt: string;
}

export interface TextResult {
  readonly sentences: SentenceResult[];
  readonly aspects: TextAspect[];
  readonly overall: Sentiment;
  readonly score: number;
}

export interface Analyzer {
  analyzeSentence(text: string): SentenceResult;
  analyzeText(text: string): TextResult;
}

const NEUTRAL_BAND = 0.25;
const NEUTRAL_RULE_CONFIDENCE = 0.24;
const EXCERPT_MAX = 200;

export function round3(x: number): number {
  const r = Math.round(x * 1000) / 1000;
  return Object.is(r, -0) ? 0 : r;
}

export function squash(raw: number): number {
  return raw / (1 + Math.abs(raw));
}

/**
 * The rules' confidence in a label: its margin. A polar label's |score| (0.25–1), and for a neutral
 * label the fixed share of neutral rule labels that were right on train.jsonl (0.24, measured).
 */
export function ruleConfidence(score: number): number {
  return Math.abs(score) >= NEUTRAL_BAND ? round3(Math.abs(score)) : NEUTRAL_RULE_CONFIDENCE;
}

export function toSentiment(score: number): Sentiment {
  if (score >= NEUTRAL_BAND) return 'positive';
  if (score <= -NEUTRAL_BAND) return 'negative';
  return 'neutral';
}

/** Trim and cut at a word boundary to at most `max` characters, ending with "…" when cut. */
export function excerpt(text: string, max = EXCERPT_MAX): string {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t.length <= max) return t;
  const head = t.slice(0, max - 1);
  const cut = head.lastIndexOf(' ');
  return `${(cut > max / 2 ? head.slice(0, cut) : head).replace(/[\s,;:.—-]+$/u, '')}…`;
}

/** Analyse a review: each sentence with `analyzeSentence`, and the overall from their scores. */
export function analyzeTextWith(analyzeSentence: (text: string) => SentenceResult, text: string): TextResult {
  const sentences = splitSentences(text).map(analyzeSentence);
  let raw = 0;
  // Undo the squash to add sentence evidence on the raw scale.
  for (const s of sentences) raw += s.score / (1 - Math.min(Math.abs(s.score), 0.999));
  const score = round3(squash(raw));
  return { sentences, aspects: textAspects(sentences), overall: toSentiment(score), score };
}

/** The aspects of a text: each label of each sentence, in order, with its sentence as the excerpt. */
export function textAspects(sentences: readonly SentenceResult[]): TextAspect[] {
  const aspects: TextAspect[] = [];
  for (const s of sentences) {
    const ex = excerpt(s.text);
    for (const l of s.labels) aspects.push({ aspect: l.aspect, sentiment: l.sentiment, score: l.score, confidence: l.confidence, excerpt: ex });
  }
  return aspects;
}
