import type { Answer } from '../http/answer.ts';

/** Sets a header whatever the case of the name it already has; Vary is added to, not replaced. */
export function setHeader(answer: Answer, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const key of Object.keys(answer.headers)) {
    // The length first: most names differ in it, and lower-casing each would copy it.
    if (key.length !== lower.length || key.toLowerCase() !== lower) continue;
    if (lower === 'vary') value = `${answer.headers[key]}, ${value}`;
    delete answer.headers[key];
  }
  answer.headers[name] = value;
}
