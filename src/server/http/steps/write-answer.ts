/** Writes the answer the steps below gave back; steps that wrote their own response give none. */
import { writeAnswer } from '../answer.ts';
import type { Step } from '../pipeline.ts';

export const writeOutcome: Step = async ({ req, res }, next) => {
  const answer = await next();
  if (answer !== undefined && !res.headersSent) writeAnswer(req, res, answer);
  return undefined;
};
