/**
 * How the analyzer was measured, for `/insights.json`: read from the committed
 * `absa/measurement.json`, which `npm run train:absa` writes (never by hand). The
 * published figure is the frozen one (text by a writer the model never saw), with the
 * cross-validated mean beside it.
 */
import { z } from 'zod';
import measurement from './absa/measurement.json' with { type: 'json' };
import type { Insights } from '../schemas/insights.ts';
import { QUOTE_MIN_CONFIDENCE } from './quotes.ts';

const figures = { tripleF1: z.number().min(0).max(1), aspectF1: z.number().min(0).max(1) };

const measurementFileSchema = z.looseObject({
  date: z.iso.date(),
  method: z.string().min(1),
  frozen: z.looseObject({ note: z.string().min(1), sentences: z.int().min(1), ...figures }),
  crossValidated: z.looseObject({ by: z.string().min(1), groups: z.array(z.string()).min(1), ...figures }),
});

export function analyzerMeasurement(): Insights['analyzer'] {
  const { date, method, frozen, crossValidated } = measurementFileSchema.parse(measurement);
  return {
    method,
    measured_on: date,
    evaluation: `${frozen.sentences} labelled sentences, ${frozen.note}`,
    sentences: frozen.sentences,
    triple_f1: frozen.tripleF1,
    aspect_f1: frozen.aspectF1,
    cross_validated: {
      by: crossValidated.by,
      folds: crossValidated.groups.length,
      triple_f1: crossValidated.tripleF1,
      aspect_f1: crossValidated.aspectF1,
    },
    quote_min_confidence: QUOTE_MIN_CONFIDENCE,
  };
}
