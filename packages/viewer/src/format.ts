// How numbers read on screen. Unknown is "—", never 0: a missing cost is not a free run.

export const DASH = "—";

/** A 0–100 score. */
export function formatScore(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? DASH : `${value.toFixed(digits)}%`;
}

/** A 0–1 credit as a percentage. */
export function formatCredit(value: number | null | undefined): string {
  return value === null || value === undefined ? DASH : `${Math.round(value * 1000) / 10}%`;
}

/** A recorded cost: null is "unknown" (no usage, or an unpriced model), never $0. */
export function formatCost(value: number | null | undefined): string {
  return value === null || value === undefined ? "unknown" : formatUSD(value);
}

export function formatUSD(value: number | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  if (value === 0) return "$0";
  return value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return DASH;
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${Math.round(seconds % 60)}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? DASH : value.toLocaleString("en-US");
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatDate(iso: string | number | null): string {
  if (iso === null) return DASH;
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? String(iso)
    : date.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium" });
}

export function formatTime(epochMs: number | null): string {
  return epochMs === null ? "" : new Date(epochMs).toLocaleTimeString("en-GB");
}

export function shortId(id: string): string {
  const match = /^([a-z]+_)([0-9a-f]{8})/.exec(id);
  return match ? `${match[1]}${match[2]}` : id.length > 16 ? `${id.slice(0, 16)}…` : id;
}

/** Pretty JSON; strings are shown as themselves. */
export function formatJson(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** A colour class for a credit: full, partial, none, or unknown. */
export function creditClass(value: number | null | undefined): string {
  if (value === null || value === undefined) return "credit-unknown";
  if (value >= 0.999) return "credit-full";
  if (value <= 0.001) return "credit-none";
  return "credit-partial";
}
