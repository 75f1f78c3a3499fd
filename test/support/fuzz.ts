/**
 * What every fuzz suite shares: a seeded generator (a failure replays from its
 * seed), requests a few at a time against one server, the server's peak resident
 * memory, and the API's documented error shape.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { seededRandom as floats } from '../../src/domain/seeded-random.ts';

export interface Random {
  (): number;
  pick<T>(items: readonly T[]): T;
  int(min: number, max: number): number;
}

/** The project's seeded generator (src/domain/seeded-random.ts) with helpers to pick. */
export function seededRandom(seed: number): Random {
  const next = floats(seed) as Random;
  next.pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  return next;
}

/** Runs `task` over every input, `concurrency` at a time, in input order. */
export async function runConcurrently<T>(inputs: readonly T[], concurrency: number, task: (input: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const index = next++;
      await task(inputs[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Peak and current resident memory of a process in MiB (Linux /proc), or undefined elsewhere. */
export function residentMemory(pid: number): { peakMiB: number; nowMiB: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { peakMiB: Math.round(kib('VmHWM') / 1024), nowMiB: Math.round(kib('VmRSS') / 1024) };
  } catch {
    return undefined;
  }
}

/** The API's error body: `{ error, message, issues? }`, each issue `{ path, code, message }` (issues required when `withIssues`). */
export function expectApiError(text: string, context: string, withIssues = false): { error: string; issues?: unknown[] } {
  const body = JSON.parse(text) as { error?: unknown; message?: unknown; issues?: unknown };
  expect(typeof body.error, context).toBe('string');
  expect(typeof body.message, context).toBe('string');
  expect(Object.keys(body).every((key) => ['error', 'message', 'issues'].includes(key)), context).toBe(true);
  if (withIssues || body.issues !== undefined) {
    expect(Array.isArray(body.issues) && body.issues.length > 0, context).toBe(true);
    for (const issue of body.issues as Record<string, unknown>[]) {
      expect([typeof issue.path, typeof issue.code, typeof issue.message], context).toEqual(['string', 'string', 'string']);
    }
  }
  return body as { error: string; issues?: unknown[] };
}
