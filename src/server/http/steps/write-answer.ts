/** Writes the answer the steps below gave back; steps that wrote their own response give none. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeAnswer } from '../answer.ts';
import type { Outcome, Step } from '../pipeline.ts';

function write(req: IncomingMessage, res: ServerResponse, answer: Outcome): undefined {
  if (answer !== undefined && !res.headersSent) writeAnswer(req, res, answer);
  return undefined;
}

export const writeOutcome: Step = ({ req, res }, next) => {
  const result = next();
  return result instanceof Promise ? result.then((answer) => write(req, res, answer)) : write(req, res, result);
};
