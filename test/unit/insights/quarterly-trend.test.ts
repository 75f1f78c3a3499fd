import { describe, expect, it } from 'vitest';
import { chartGeometry, describeTrend, formatScore, quarterlyTrend, type QuarterPoint } from '../../../src/domain/insights/quarterly-trend.ts';
import type { Insights } from '../../../src/domain/schemas/insights.ts';

const quarter = (q: string, positive: number, negative: number, neutral = 0) => ({
  quarter: q,
  positive,
  negative,
  neutral,
  mentions: positive + negative + neutral,
  score: 0,
});

describe('quarterlyTrend', () => {
  it('adds every aspect up per quarter, oldest first', () => {
    const insights = {
      aspects: [
        { trend: [quarter('2024-Q2', 3, 1), quarter('2024-Q1', 1, 1)] },
        { trend: [quarter('2024-Q2', 0, 2, 2)] },
      ],
    } as unknown as Insights;
    expect(quarterlyTrend(insights)).toEqual([
      { quarter: '2024-Q1', score: 0, mentions: 2, positive: 1, negative: 1 },
      { quarter: '2024-Q2', score: (3 - 3) / 8, mentions: 8, positive: 3, negative: 3 },
    ]);
  });
});

const points = (scores: number[]): QuarterPoint[] =>
  scores.map((score, i) => ({ quarter: `${2020 + Math.floor(i / 4)}-Q${(i % 4) + 1}`, score, mentions: 10, positive: 5, negative: 5 }));

describe('chartGeometry', () => {
  it('puts +1 at the top of the plot and −1 at the bottom, the quarters left to right', () => {
    const chart = chartGeometry(points([1, -1, 0]));
    expect(chart.points.map((p) => p.y)).toEqual([chart.plot.top, chart.plot.bottom, (chart.plot.top + chart.plot.bottom) / 2]);
    expect(chart.points.map((p) => p.x)).toEqual([chart.plot.left, (chart.plot.left + chart.plot.right) / 2, chart.plot.right]);
    expect(chart.yTicks.map((t) => t.label)).toEqual(['+1.00', '+0.50', '0.00', '−0.50', '−1.00']);
    expect(chart.path).toMatch(/^M[\d.]+,[\d.]+ L[\d.]+,[\d.]+ L[\d.]+,[\d.]+$/);
  });

  it('labels every quarter when they fit, and thins the labels when they do not, always keeping the first and last', () => {
    expect(chartGeometry(points([0, 0, 0, 0])).xLabels.map((l) => l.label)).toEqual(['2020-Q1', '2020-Q2', '2020-Q3', '2020-Q4']);
    const many = chartGeometry(points(Array.from({ length: 23 }, () => 0)));
    const labels = many.xLabels.map((l) => l.label);
    expect(labels[0]).toBe('2020-Q1');
    expect(labels.at(-1)).toBe('2025-Q3');
    expect(labels.length).toBeLessThanOrEqual(7);
    // No two labels closer than one label's room.
    const xs = many.xLabels.map((l) => l.x);
    for (let i = 1; i < xs.length; i++) expect((xs[i] as number) - (xs[i - 1] as number)).toBeGreaterThanOrEqual(66);
  });
});

describe('describeTrend and formatScore', () => {
  it('says what a point means and what the line did', () => {
    const text = describeTrend(points([0.2, -0.4, 0.6]));
    expect(text).toContain('from −1 (all negative) to +1 (all positive)');
    expect(text).toContain('From 2020-Q1 (+0.20) to 2020-Q3 (+0.60) it went up; the best quarter was 2020-Q3 (+0.60), the lowest 2020-Q2 (−0.40).');
    expect(describeTrend(points([0.5, 0.52]))).toContain('it went about level');
  });

  it('writes signs as people read them', () => {
    expect([0.123, -0.1, 0, -0.001].map(formatScore)).toEqual(['+0.12', '−0.10', '0.00', '0.00']);
  });
});
