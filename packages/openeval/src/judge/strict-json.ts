// A judge's return value must be plain JSON: anything JSON.stringify would silently change or drop
// (undefined, NaN, Infinity, functions, class instances, cycles) is refused, naming where it is.
import { describe } from "./normalize.ts";

export function toStrictJson(value: unknown): string {
  check(value, "result", new Set());
  return JSON.stringify(value);
}

function check(value: unknown, path: string, ancestors: Set<object>): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`${path} is ${value}, which JSON cannot represent`);
    return;
  }
  if (typeof value !== "object") throw new TypeError(`${path} is ${describe(value)}, which is not JSON`);
  if (ancestors.has(value)) throw new TypeError(`${path} refers back to itself (a cycle)`);
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) {
    throw new TypeError(`${path} is ${describe(value)}; return plain objects and arrays only`);
  }
  ancestors.add(value);
  if (Array.isArray(value)) value.forEach((item, index) => check(item, `${path}[${index}]`, ancestors));
  else for (const [key, item] of Object.entries(value)) check(item, `${path}.${key}`, ancestors);
  ancestors.delete(value);
}
