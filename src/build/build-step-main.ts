/** The child process of build-step.ts: `node build-step-main.ts <step>`, input on stdin, result on stdout. */
import { text } from 'node:stream/consumers';
import { BUILD_STEPS, type BuildStep } from './build-step.ts';

const step = process.argv[2] as BuildStep;
if (!Object.hasOwn(BUILD_STEPS, step)) throw new Error(`unknown build step "${step}"`);
const run = BUILD_STEPS[step] as (input: unknown) => Promise<unknown>;
const result = await run(JSON.parse(await text(process.stdin)));
process.stdout.write(JSON.stringify(result));
