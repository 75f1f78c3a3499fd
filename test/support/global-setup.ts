import type { TestProject } from 'vitest/node';
import { buildFixture } from './build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    smallBuild: string;
  }
}

/** One build of the small fixture, shared by every integration test file. */
export default function setup(project: TestProject): void {
  project.provide('smallBuild', buildFixture('small'));
}
