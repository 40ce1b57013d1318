// The median, shared by cost estimates (plan/), statistics (results/) and the live queue (view/).

/**
 * The median (mean of the two middle values for an even count); null for an empty list.
 * @example median([4, 1, 3, 2]) // 2.5
 */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
