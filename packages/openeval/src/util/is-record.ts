// The one check for "a plain JSON object" (not null, not an array) used when reading loosely typed config.
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
