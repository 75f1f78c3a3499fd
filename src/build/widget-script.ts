/**
 * The widget's script (`/widget.js`) from its TypeScript source (src/widget): the
 * types stripped and comments dropped by TypeScript's single-file transpiler, at
 * build time, so the same source gives the same bytes and the browser gets a plain
 * script with no module loader and no dependency.
 */
import ts from 'typescript';

export function widgetScript(source: string): string {
  const { outputText } = ts.transpileModule(source, {
    reportDiagnostics: false,
    compilerOptions: { target: ts.ScriptTarget.ES2022, removeComments: true, newLine: ts.NewLineKind.LineFeed },
  });
  return outputText;
}
