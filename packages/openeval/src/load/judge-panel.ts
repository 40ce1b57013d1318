// benchmark.ts `judge`: which models grade a rubric (`judge.model`, `judge.models`, or both: a panel), how a panel's
// judgments of a criterion combine, and when a criterion's judges agree too little to block on their own.

/** How a panel's judgments of one criterion become its score: their mean, the majority value, or the lowest. */
export const PANEL_COMBINE_RULES = ["mean", "majority", "min"] as const;
export type PanelCombineRule = (typeof PANEL_COMBINE_RULES)[number];

/** Below this Krippendorff's α a criterion's judges are unreliable (Krippendorff's lowest bar for tentative conclusions). */
export const DEFAULT_MIN_AGREEMENT = 0.67;
/** Recordings graded by two or more judgments that α needs before it can call a criterion unreliable. */
export const DEFAULT_MIN_AGREEMENT_UNITS = 2;

/** benchmark.ts `judge`, as far as choosing and trusting judges goes. */
interface JudgeChoice {
  judge: {
    model?: string | undefined;
    models?: string[] | undefined;
    combine?: PanelCombineRule | undefined;
    minAgreement?: number | undefined;
    minAgreementUnits?: number | undefined;
    strict?: boolean | undefined;
  };
}

export interface JudgePanel {
  /** `judge.model` first, then `judge.models`, each once; empty when neither is set. */
  models: string[];
  combine: PanelCombineRule;
}

export interface AgreementSettings {
  minAgreement: number;
  minUnits: number;
  /** An unreliable criterion's failures block like any other (`judge.strict`). */
  strict: boolean;
}

/**
 * @example judgePanelOf({ judge: { model: "a/x", models: ["b/y"] } }) // { models: ["a/x", "b/y"], combine: "mean" }
 */
export function judgePanelOf(settings: JudgeChoice): JudgePanel {
  const { model, models, combine } = settings.judge;
  return { models: [...(model ? [model] : []), ...(models ?? [])], combine: combine ?? "mean" };
}

export function agreementSettingsOf(settings: {
  judge: Pick<JudgeChoice["judge"], "minAgreement" | "minAgreementUnits" | "strict">;
}): AgreementSettings {
  return {
    minAgreement: settings.judge.minAgreement ?? DEFAULT_MIN_AGREEMENT,
    minUnits: settings.judge.minAgreementUnits ?? DEFAULT_MIN_AGREEMENT_UNITS,
    strict: settings.judge.strict ?? false,
  };
}

/** A model named twice (judge.model counts) would grade twice as one judge: said at load, with what to do instead. */
export function judgePanelProblems(settings: JudgeChoice): string[] {
  const { models } = judgePanelOf(settings);
  const twice = [...new Set(models.filter((model, index) => models.indexOf(model) !== index))];
  return twice.map(
    (model) =>
      `judge.models: ${model} is listed twice (judge.model counts as one of the panel); list each judge model once, and grade a recording again with openeval rejudge --repeat <n>`,
  );
}
