// Character-level similarity of two texts: 2·LCS / (|a| + |b|) over Unicode code points.
//
// Why this measure: it is what Crucible's reference-fix scorer computes with `similar::TextDiff::from_chars(a, b).ratio()` (2 × the length
// of the equal runs of an optimal character diff ÷ the total length; 1.0 for two empty texts), so scores stay
// comparable with that scorer's archive. Ratcliff/Obershelp (Python's difflib) is greedy and gives different
// numbers for the same pair. The LCS length comes from the bit-parallel algorithm of Allison–Dix/Hyyrö:
// O(|a|·|b|/32) word operations, so a few KB against a few KB takes well under a millisecond.
//
// Cost bound: the common prefix and suffix are stripped first (exact, and most of a near-identical pair). What
// remains is compared in full while |a|·|b| ≤ MAX_COMPARED_CHARS² (20,000 × 20,000 characters, about 0.1 s);
// beyond that the longer remainder (or both, past MAX_COMPARED_CHARS each) is cut to fit and the result says
// `truncated: true`. The ratio is then a lower bound on the exact one, never an overstatement.

/** The side of the comparison budget: MAX_COMPARED_CHARS² character pairs after the shared prefix and suffix. */
export const MAX_COMPARED_CHARS = 20_000;

export interface CharSimilarity {
  /** 2·LCS / (|a| + |b|), in [0, 1]; 1 when both texts are empty. */
  ratio: number;
  /** True when the texts were cut to fit the comparison budget: `ratio` is then a lower bound. */
  truncated: boolean;
}

/**
 * @example
 * charSimilarity("x = 1", "x = 2") // { ratio: 0.8, truncated: false }: LCS "x = " is 4 of 5 + 5 characters
 */
export function charSimilarity(a: string, b: string, maxChars = MAX_COMPARED_CHARS): CharSimilarity {
  const left = codePoints(a);
  const right = codePoints(b);
  const total = left.length + right.length;
  if (total === 0) return { ratio: 1, truncated: false };
  let prefix = 0;
  while (prefix < left.length && prefix < right.length && left[prefix] === right[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < left.length - prefix &&
    suffix < right.length - prefix &&
    left[left.length - 1 - suffix] === right[right.length - 1 - suffix]
  )
    suffix++;
  const middleLeft = left.slice(prefix, left.length - suffix);
  const middleRight = right.slice(prefix, right.length - suffix);
  const [leftLimit, rightLimit] = limits(middleLeft.length, middleRight.length, maxChars);
  const truncated = leftLimit < middleLeft.length || rightLimit < middleRight.length;
  const lcs = prefix + suffix + lcsLength(middleLeft.slice(0, leftLimit), middleRight.slice(0, rightLimit));
  return { ratio: (2 * lcs) / total, truncated };
}

/** How much of each remainder fits the budget of maxChars² pairs: a short side is kept whole when it can be. */
function limits(left: number, right: number, maxChars: number): [number, number] {
  const budget = maxChars * maxChars;
  if (left * right <= budget) return [left, right];
  if (left <= maxChars) return [left, Math.floor(budget / left)];
  if (right <= maxChars) return [Math.floor(budget / right), right];
  return [maxChars, maxChars];
}

function codePoints(text: string): number[] {
  const points: number[] = [];
  for (const char of text) points.push(char.codePointAt(0)!);
  return points;
}

/** Length of a longest common subsequence, bit-parallel (Hyyrö 2004): one bit per position of `a`. */
export function lcsLength(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const words = Math.ceil(a.length / 32);
  const masks = new Map<number, Uint32Array>();
  a.forEach((point, index) => {
    let mask = masks.get(point);
    if (!mask) masks.set(point, (mask = new Uint32Array(words)));
    mask[index >>> 5]! |= 1 << (index & 31);
  });
  // V holds a 0 bit for each position of `a` that is the end of an LCS "step"; the zeros count the LCS length.
  const v = new Uint32Array(words).fill(0xffffffff);
  for (const point of b) {
    const mask = masks.get(point);
    if (!mask) continue; // U = 0 leaves V unchanged
    let carry = 0;
    for (let word = 0; word < words; word++) {
      const current = v[word]!;
      const matched = (current & mask[word]!) >>> 0;
      const sum = current + matched + carry; // V + U, with the carry rippling across words
      carry = sum > 0xffffffff ? 1 : 0;
      v[word] = sum | (current & ~mask[word]!); // (V + U) | (V − U), and V − U = V & ~M because U ⊆ V
    }
  }
  let zeros = 0;
  for (let word = 0; word < words; word++) {
    const bits = word === words - 1 && a.length % 32 !== 0 ? a.length % 32 : 32;
    const used = bits === 32 ? v[word]! : v[word]! & ((1 << bits) - 1);
    zeros += bits - popcount(used);
  }
  return zeros;
}

function popcount(value: number): number {
  let x = value >>> 0;
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
