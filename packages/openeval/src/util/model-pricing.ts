// Whether a model has a price (a reported zero cost is shown as reported; no price is unknown). A model that
// benchmark.ts `candidate.providers` declares without `cost` is unpriced: OpenCode then records $0 for every step,
// which is not a price. Catalog models (not declared) carry OpenCode's prices; controls are priced at 0 on purpose.
import { CONTROL_PROVIDER, controlName, isControlModel } from "./control-model.ts";
import { isRecord } from "./is-record.ts";

/**
 * @example isPriced("local/qwen", { local: { models: { qwen: { name: "Qwen" } } } }) // false
 */
export function isPriced(model: string, providers: Readonly<Record<string, Record<string, unknown>>>): boolean {
  const slash = model.indexOf("/");
  const provider = model.slice(0, slash);
  const name = (isControlModel(model) ? controlName(model) : model.slice(slash + 1)).split("#")[0]!;
  const models = providers[provider]?.models;
  const declared = isRecord(models) ? models[name] : undefined;
  if (!isRecord(declared)) return true;
  if (provider === CONTROL_PROVIDER && declared.cost === undefined) return true;
  return declared.cost !== undefined;
}

/** What a user reads about an unpriced model, and what to do about it. */
export function unpricedReason(model: string): string {
  const provider = model.slice(0, model.indexOf("/"));
  return `${model} has no pricing (benchmark.ts candidate.providers.${provider}.models declares it without \`cost\`), so its cost is unknown; add cost: { input, output } (USD per million tokens) to price it`;
}
