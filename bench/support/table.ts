/** How the benchmarks print their figures: numbers with separators, rows as a Markdown table. */

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function markdownTable(head: readonly string[], lines: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const row = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  return [row(head), row(widths.map((w) => '-'.repeat(w))), ...lines.map(row)].join('\n');
}

/** A figure against its goal: "84.2 s (goal ≤ 60 s: missed)". */
export function against(figure: string, goal: string, met: boolean): string {
  return `${figure} (goal ${goal}: ${met ? 'met' : 'missed'})`;
}
