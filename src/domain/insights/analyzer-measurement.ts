/**
 * How the analyzer was measured, for `/insights.json`: read from the committed
 * `absa/measurement.json`, which a script writes from an evaluation run (never by hand).
 */
import { z } from 'zod';
import measurement from './absa/measurement.json' with { type: 'json' };
import type { Insights } from '../schemas/insights.ts';
import { QUOTE_MIN_CONFIDENCE } from './quotes.ts';

const measurementFileSchema = z.looseObject({
  method: z.string().min(1),
  measured_on: z.iso.date(),
  evaluation: z.string().min(1),
  sentences: z.int().min(1),
  triple_f1: z.number().min(0).max(1),
  aspect_f1: z.number().min(0).max(1),
});

export function analyzerMeasurement(): Insights['analyzer'] {
  const { method, measured_on, evaluation, sentences, triple_f1, aspect_f1 } = measurementFileSchema.parse(measurement);
  return { method, measured_on, evaluation, sentences, triple_f1, aspect_f1, quote_min_confidence: QUOTE_MIN_CONFIDENCE };
}
