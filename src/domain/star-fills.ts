/** How much of each of five stars a rating fills: 4.18 fills four stars whole and 18% of the fifth. */
export function starFills(rating: number): number[] {
  return [0, 1, 2, 3, 4].map((before) => Math.round(Math.min(1, Math.max(0, rating - before)) * 100) / 100);
}

/** A rating as words, for screen readers and tooltips: "Rated 4.18 out of 5". */
export function ratingLabel(rating: number): string {
  return `Rated ${Number.isInteger(rating) ? rating : rating.toFixed(2)} out of 5`;
}
