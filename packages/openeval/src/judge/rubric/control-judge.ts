// The scripted judge `control/judge`: for each candidate control with a `verdict`, a control
// `judge.<name>` that submits that verdict through judge_submit_judgment, then says it is done; and for earlyStop
// checks `judge-early.<name>`, which submits a verdict that decides every criterion and otherwise continues. A
// variant `control/judge#<v>` plays the control's `judges.<v>` verdict instead, where it declares one.
import type { ControlFile } from "@openeval/control-model";
import type { JudgePhase } from "./schema.ts";
import { CONTROL_PROVIDER, controlName, isControlModel } from "../../util/control-model.ts";

/** The judge model that answers from the candidate control's declared verdict. */
export const SCRIPTED_JUDGE_MODEL = `${CONTROL_PROVIDER}/judge`;
const SUBMIT_TOOL_NAME = "judge_submit_judgment";
const CONTINUE_TOOL_NAME = "judge_continue_judging";
const FINAL_TEXT = "Judgment submitted from the control's declared verdict.";

/**
 * Register these beside the eval's own controls on the control server.
 * @example
 * startControlServer({ controls: { [evalId]: { ...controls, ...judgeControls(controls) } } });
 */
export function judgeControls(controls: Record<string, ControlFile>): Record<string, ControlFile> {
  const judges: Record<string, ControlFile> = {};
  for (const [name, control] of Object.entries(controls)) {
    if (!control.verdict) continue;
    const verdict = Object.entries(control.verdict);
    const scores = Object.fromEntries(
      verdict.map(([criterion, { value, reason }]) => [criterion, { value, reason, evidence: [{ kind: "response" }] }]),
    );
    const submit = { tools: [{ name: SUBMIT_TOOL_NAME, input: { scores } }] };
    const open = verdict.find(([, score]) => score.value === null);
    const reason = open
      ? `${open[0]}: ${open[1].reason}`
      : "The control declares that its run is not decided until it finishes.";
    const keepGoing = { tools: [{ name: CONTINUE_TOOL_NAME, input: { reason } }] };
    const decides = (control.earlyCheck ?? (open ? "continue" : "decide")) === "decide";
    judges[judgeControlName(name, "final")] = { turns: [submit, { text: FINAL_TEXT }] };
    judges[judgeControlName(name, "early")] = { turns: [decides ? submit : keepGoing, { text: FINAL_TEXT }] };
    for (const [variant, overrides] of Object.entries(control.judges ?? {})) {
      const scores = Object.fromEntries(
        Object.entries({ ...control.verdict, ...overrides }).map(([criterion, { value, reason }]) => [
          criterion,
          { value, reason, evidence: [{ kind: "response" }] },
        ]),
      );
      const turns = [{ tools: [{ name: SUBMIT_TOOL_NAME, input: { scores } }] }, { text: FINAL_TEXT }];
      judges[judgeControlName(name, "final", variant)] = { turns };
    }
  }
  return judges;
}

/** `judge.<control>`, `judge-early.<control>`, or a variant's `judge.<control>.<variant>`. */
export function judgeControlName(candidateControl: string, phase: JudgePhase, variant?: string): string {
  return `${phase === "early" ? "judge-early" : "judge"}.${candidateControl}${variant ? `.${variant}` : ""}`;
}

/**
 * The model the judge session really runs: `control/judge` becomes `control/judge.<candidate control>`; any other
 * judge model runs as written. An error says why a scripted judge cannot grade this candidate.
 */
export function resolveJudgeModel(
  judgeModel: string,
  candidateModel: string | null,
  controls: Record<string, ControlFile>,
  phase: JudgePhase = "final",
): { model: string } | { error: string } {
  const [scripted, variant] = judgeModel.split("#") as [string, string | undefined];
  if (scripted !== SCRIPTED_JUDGE_MODEL) return { model: judgeModel };
  if (candidateModel === null)
    return {
      error: `the scripted judge ${SCRIPTED_JUDGE_MODEL} plays a control candidate's verdict, and constructed evidence has none; script the judge or use a real model`,
    };
  if (!isControlModel(candidateModel)) {
    return {
      error: `the scripted judge ${SCRIPTED_JUDGE_MODEL} grades only control candidates (control/<name>), and ${candidateModel} is not one; set judge.model to a real model`,
    };
  }
  const name = controlName(candidateModel).split("#")[0]!;
  if (!Object.hasOwn(controls, name))
    return {
      error: `the candidate control "${name}" has no control file, so ${SCRIPTED_JUDGE_MODEL} has no verdict to submit`,
    };
  if (!controls[name]!.verdict) {
    return {
      error: `the candidate control "${name}" declares no verdict; add "verdict": { "<criterion>": { "value": …, "reason": "…" } } to controls/${name}.json for ${SCRIPTED_JUDGE_MODEL}`,
    };
  }
  // A variant the candidate's control says nothing about judges as control/judge does, and so do early checks.
  const declared = phase === "final" && variant !== undefined && Object.hasOwn(controls[name]!.judges ?? {}, variant);
  return { model: `${CONTROL_PROVIDER}/${judgeControlName(name, phase, declared ? variant : undefined)}` };
}
