/**
 * What an `.astro` file imports, in a form dependency-cruiser can read. Its parsers
 * know JavaScript and TypeScript but not Astro's frontmatter fences and markup, so
 * `npm run check:layers` hands it these import statements in place of the file.
 */
import ts from 'typescript';

const fence = /^---[ \t]*$/m;

/** The frontmatter: the script between the opening `---` line and the next one. */
export function frontmatter(astroSource: string): string {
  const open = fence.exec(astroSource);
  if (!open || astroSource.slice(0, open.index).trim() !== '') return '';
  const start = open.index + open[0].length;
  const close = fence.exec(astroSource.slice(start));
  return close ? astroSource.slice(start, start + close.index) : '';
}

/**
 * One side-effect import per module the frontmatter imports (type-only imports and
 * dynamic imports included: a type still ties the page to the module's layer).
 */
export function astroImportsAsModule(astroSource: string): string {
  const { importedFiles } = ts.preProcessFile(frontmatter(astroSource), true, true);
  return importedFiles.map(({ fileName }) => `import ${JSON.stringify(fileName)};\n`).join('');
}
