/**
 * The insights page's trend: the sentiment of every aspect mention, quarter by quarter, as
 * the points of a line chart (with its axes) and as a sentence that says what it shows.
 * Pure: the component only draws what this returns.
 */
import type { Insights } from '../schemas/insights.ts';

export interface QuarterPoint {
  quarter: string;
  /** (positive - negative) / mentions, from -1 to +1. */
  score: number;
  mentions: number;
  positive: number;
  negative: number;
}

/** Every aspect's mentions added up per quarter, oldest quarter first. */
export function quarterlyTrend(insights: Insights): QuarterPoint[] {
  const byQuarter = new Map<string, { positive: number; negative: number; mentions: number }>();
  for (const aspect of insights.aspects) {
    for (const q of aspect.trend) {
      const entry = byQuarter.get(q.quarter) ?? { positive: 0, negative: 0, mentions: 0 };
      entry.positive += q.positive;
      entry.negative += q.negative;
      entry.mentions += q.mentions;
      byQuarter.set(q.quarter, entry);
    }
  }
  return [...byQuarter.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([quarter, c]) => ({ quarter, score: c.mentions ? (c.positive - c.negative) / c.mentions : 0, mentions: c.mentions, positive: c.positive, negative: c.negative }));
}

/** A score as people read it: +0.42, −0.10 (a real minus sign), 0.00. */
export function formatScore(score: number): string {
  const fixed = Math.abs(score).toFixed(2);
  if (fixed === '0.00') return '0.00';
  return `${score > 0 ? '+' : '−'}${fixed}`;
}

export interface ChartGeometry {
  width: number;
  height: number;
  /** The plot area inside the axes. */
  plot: { left: number; right: number; top: number; bottom: number };
  points: (QuarterPoint & { x: number; y: number })[];
  /** The line through the points, as SVG path data. */
  path: string;
  /** Horizontal grid lines with their labels: −1, 0, +1 (and halves). */
  yTicks: { y: number; label: string }[];
  /** The quarters labelled under the x axis: all of them when they fit, else every n-th (first and last always). */
  xLabels: { x: number; label: string }[];
}

/** Room for one quarter label ("2024-Q2") at the chart's font size, in viewBox units. */
const LABEL_ROOM = 66;

export function chartGeometry(points: readonly QuarterPoint[], width = 480, height = 220): ChartGeometry {
  const plot = { left: 62, right: width - 30, top: 12, bottom: height - 40 };
  const span = plot.right - plot.left;
  const x = (i: number) => plot.left + (points.length > 1 ? (i * span) / (points.length - 1) : span / 2);
  const y = (score: number) => plot.top + ((1 - score) / 2) * (plot.bottom - plot.top);
  const placed = points.map((p, i) => ({ ...p, x: round(x(i)), y: round(y(p.score)) }));
  const every = Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor(span / LABEL_ROOM))));
  const labelled = placed.filter((_, i) => i % every === 0);
  const last = placed.at(-1);
  if (last && labelled.at(-1) !== last) {
    // The last quarter is always labelled; the one before it makes room if they would touch.
    if (labelled.length > 1 && last.x - (labelled.at(-1) as { x: number }).x < LABEL_ROOM) labelled.pop();
    labelled.push(last);
  }
  const xLabels = labelled.map((p) => ({ x: p.x, label: p.quarter }));
  return {
    width,
    height,
    plot,
    points: placed,
    path: placed.map((p, i) => `${i ? 'L' : 'M'}${p.x},${p.y}`).join(' '),
    yTicks: [1, 0.5, 0, -0.5, -1].map((score) => ({ y: round(y(score)), label: formatScore(score) })),
    xLabels,
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** One or two sentences saying what the chart shows and what it says. */
export function describeTrend(points: readonly QuarterPoint[]): string {
  const meaning = 'Each point is one quarter: the share of positive minus the share of negative aspect mentions in its reviews, from −1 (all negative) to +1 (all positive).';
  if (points.length === 0) return meaning;
  const first = points[0] as QuarterPoint;
  const last = points.at(-1) as QuarterPoint;
  if (points.length === 1) return `${meaning} There is one quarter so far, ${first.quarter}, at ${formatScore(first.score)}.`;
  let best = first;
  let worst = first;
  for (const p of points) {
    if (p.score > best.score) best = p;
    if (p.score < worst.score) worst = p;
  }
  const change = last.score - first.score;
  const direction = Math.abs(change) < 0.05 ? 'about level' : change > 0 ? 'up' : 'down';
  return (
    `${meaning} From ${first.quarter} (${formatScore(first.score)}) to ${last.quarter} (${formatScore(last.score)}) it went ${direction}; ` +
    `the best quarter was ${best.quarter} (${formatScore(best.score)}), the lowest ${worst.quarter} (${formatScore(worst.score)}).`
  );
}
