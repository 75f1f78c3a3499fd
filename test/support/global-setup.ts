import type { TestProject } from 'vitest/node';
import { buildFixture } from './build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    smallBuild: string;
  }
}

/** One build of the small fixture, shared by every integration test file. */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('smallBuild', await buildFixture('small'));
}
