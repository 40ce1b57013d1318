// Criterion categories (OpenEval 0.5): reporting and selection metadata on criteria, never judge input. One rule for
// every place a category is written (judge.md, judge.ts, benchmark.ts, --only-category): trimmed, lowercased, checked.

/** A category key after trimming and lowercasing. */
export const CATEGORY_KEY = /^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{N} _./-]{0,63}$/u;

export const CATEGORY_RULE =
  'a category is 1–64 characters: letters, digits, spaces, "_", ".", "/" or "-", starting with a letter or digit (matched case-insensitively)';

/** The key a category name is matched by. */
export function categoryKey(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Category names → keys in first-seen order, duplicates dropped. Throws an Error naming the bad name and the rule
 * (`where` says where it was written, e.g. `criterion "correct"`).
 * @example categoryKeys([" Speed", "speed", "Safety"], "x") // ["speed", "safety"]
 */
export function categoryKeys(names: readonly unknown[], where: string): string[] {
  const keys: string[] = [];
  for (const name of names) {
    const key = typeof name === "string" ? categoryKey(name) : "";
    if (!CATEGORY_KEY.test(key))
      throw new Error(`${where}: category ${JSON.stringify(name)} is not allowed; ${CATEGORY_RULE}`);
    if (!keys.includes(key)) keys.push(key);
  }
  if (keys.length === 0) throw new Error(`${where}: lists no categories; write at least one, or remove the line`);
  return keys;
}

/** Whether a criterion with `categories` is among the selected category keys. */
export function inCategories(categories: readonly string[], selected: readonly string[]): boolean {
  return categories.some((key) => selected.includes(key));
}
