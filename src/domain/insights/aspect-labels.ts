import type { ASPECTS } from '../schemas/review.ts';

type AspectId = (typeof ASPECTS)[number];

/** How each aspect reads in a sentence, and the question customers ask about it. */
export const ASPECT_WORDING: Record<AspectId, { label: string; question: string }> = {
  workmanship: { label: 'the quality of the work', question: 'Is the work done well?' },
  timeliness: { label: 'timeliness', question: 'Do they show up and finish on time?' },
  communication: { label: 'communication', question: 'Do they keep customers informed?' },
  price: { label: 'price', question: 'Are their prices fair?' },
  cleanup: { label: 'cleanup', question: 'Do they clean up after the job?' },
  professionalism: { label: 'professionalism', question: 'Are the crews professional and respectful?' },
  estimate: { label: 'inspections and estimates', question: 'Are their inspections and estimates accurate?' },
  insurance: { label: 'insurance claims', question: 'Can they help with an insurance claim?' },
  warranty: { label: 'warranty', question: 'Do they stand behind their warranty?' },
  materials: { label: 'materials', question: 'What do customers say about the materials?' },
};
