/** A method the chosen route does not serve is the JSON 405 with Allow, whatever the route. */
import { methodNotAllowedAnswer } from '../api-error.ts';
import type { Step } from '../pipeline.ts';

export const allowedMethods: Step = ({ req, route }, next) => {
  if (route === undefined || route.methods === 'any' || route.methods.includes(req.method ?? '')) return next();
  return methodNotAllowedAnswer(req.method ?? '', route.methods);
};
