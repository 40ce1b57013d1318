// What crosses from the config worker to the loader: plain data only. A function, symbol, bigint, non-finite
// number or class instance in settings would be lost in JSON, so it is an error naming where it is.

/** Marks the worker's answer lines on its stdout. */
export const RESULT_PREFIX = "\u0000openeval-config\u0000";

export function toPlainData(value: unknown, path = "default export"): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${path} is ${value}; settings take finite numbers`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item, index) => toPlainData(item, `${path}[${index}]`));
  if (typeof value === "object") {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null)
      throw new Error(`${path} is a ${prototype?.constructor?.name ?? "class"} instance; settings take plain objects`);
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return Object.fromEntries(entries.map(([key, item]) => [key, toPlainData(item, `${path}.${key}`)]));
  }
  throw new Error(
    `${path} is a ${typeof value}; settings take plain data (strings, numbers, booleans, arrays, objects)`,
  );
}
