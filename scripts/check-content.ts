/** `npm run check:content`: every problem in the content folder, in one run. */
import { checkContent } from '../src/build/check-content.ts';
import { loadConfig } from '../src/server/config.ts';

const { contentDir } = loadConfig();
const { ok, report } = checkContent(contentDir);
(ok ? console.log : console.error)(report);
process.exit(ok ? 0 : 1);
