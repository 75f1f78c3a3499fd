import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { astroImportsAsModule, frontmatter } from '../../scripts/astro-imports.ts';

const page = `---
import Base from '../layouts/Base.astro';
import type { Review } from '../domain/schemas/review.ts';
import { loadSite } from '../build/load-site.ts';
interface Props { review: Review }
const site = await loadSite(String(Astro.site));
const lazy = await import('../domain/dates.ts');
---
<Base title="x">
  <p>import nothing from 'here';</p>
</Base>
`;

describe('frontmatter', () => {
  it('is the script between the fences, markup left out', () => {
    expect(frontmatter(page)).toContain("import Base from '../layouts/Base.astro';");
    expect(frontmatter(page)).not.toContain('<Base');
  });

  it('is empty for a component without one, or with an unclosed fence', () => {
    expect(frontmatter('<p>hello</p>\n')).toBe('');
    expect(frontmatter('---\nimport x from "y";\n')).toBe('');
    expect(frontmatter('<p>a</p>\n---\nimport x from "y";\n---\n')).toBe('');
  });
});

describe('astroImportsAsModule', () => {
  it('gives one import per module, type-only and dynamic ones included, none from the markup', () => {
    expect(astroImportsAsModule(page)).toBe(
      [
        'import "../layouts/Base.astro";',
        'import "../domain/schemas/review.ts";',
        'import "../build/load-site.ts";',
        'import "../domain/dates.ts";',
        '',
      ].join('\n'),
    );
  });

  it('finds every import of the real pages', () => {
    const index = readFileSync(new URL('../../src/pages/index.astro', import.meta.url), 'utf8');
    const imports = astroImportsAsModule(index).split('\n').filter(Boolean);
    const written = frontmatter(index).split('\n').filter((line) => line.startsWith('import '));
    expect(imports).toHaveLength(written.length);
    expect(imports).toContain('import "../layouts/Base.astro";');
  });
});
