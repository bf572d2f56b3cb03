// The nearest-rank percentile the benches' load generators and the crawl bench report: the value at
// rank ceil(p * n) of n sorted samples (p in 0..1); 0 for no samples.
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : 0;
}
