// Percentiles and rounding for the bench's figures.
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
