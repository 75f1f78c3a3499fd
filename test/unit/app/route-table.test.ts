/** docs/architecture.md shows the server's route table: the same routes, in the same order, with the same paths and methods. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../../../src/server/app/routes.ts';
import { mcpSettings } from '../../../src/server/mcp/settings.ts';
import { loadConfig } from '../../../src/server/config.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function documentedRoutes(): { name: string; path: string; methods: string }[] {
  const text = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = text.slice(text.indexOf('## Routes'), text.indexOf('\n## ', text.indexOf('## Routes') + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| route') && !line.startsWith('|---'))
    .map((line) => {
      const [name, route, methods] = line.split('|').slice(1, 4).map((cell) => cell.trim().replace(/`/g, '')) as [string, string, string];
      return { name, path: route, methods: methods.startsWith('any') ? 'any' : methods };
    });
}

describe('the route table', () => {
  it('is the one docs/architecture.md shows', () => {
    const config = loadConfig({ SITE_URL: 'http://127.0.0.1:4321' }, ROOT);
    const routes = routeTable({
      hub: { start: () => Promise.reject(new Error('not started')), started: () => undefined },
      mcp: { settings: mcpSettings(config, () => undefined), createServer: () => { throw new Error('unused'); }, direct: () => { throw new Error('unused'); } },
      pages: () => Promise.reject(new Error('unused')),
      runningCode: undefined,
    });
    const inCode = routes.map((route) => ({ name: route.name, path: route.path, methods: route.methods === 'any' ? 'any' : route.methods.join(', ') }));
    expect(documentedRoutes()).toEqual(inCode);
  });
});
