// Splits a model reference `provider/model[#variant]` into the parts OpenCode's CLI takes.

import { OpenCodeError } from "./errors.ts";

export interface ModelRef {
  /** OpenCode provider ID, e.g. `anthropic`, `control`. */
  provider: string;
  /** `provider/model` exactly as `opencode run -m` wants it. */
  id: string;
  /** The text after `#`, passed as `--variant`; null when absent. */
  variant: string | null;
}

/**
 * @example parseModelRef("openrouter/anthropic/claude-sonnet-4#high")
 * // → { provider: "openrouter", id: "openrouter/anthropic/claude-sonnet-4", variant: "high" }
 */
export function parseModelRef(model: string): ModelRef {
  const hash = model.lastIndexOf("#");
  const id = hash === -1 ? model : model.slice(0, hash);
  const variant = hash === -1 ? null : model.slice(hash + 1) || null;
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1) {
    throw new OpenCodeError("modelInvalid", { model });
  }
  return { provider: id.slice(0, slash), id, variant };
}
