// The scripted judge `control/judge` (SPEC §9): for each candidate control with a `verdict`, a control
// `judge.<name>` that submits that verdict through judge_submit_judgment, then says it is done.
import type { ControlFile } from "@openeval/control-model";

const CONTROL_PROVIDER = "control";
/** The judge model that answers from the candidate control's declared verdict. */
export const SCRIPTED_JUDGE_MODEL = `${CONTROL_PROVIDER}/judge`;
const SUBMIT_TOOL_NAME = "judge_submit_judgment";
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
    const scores = Object.fromEntries(
      Object.entries(control.verdict).map(([criterion, { value, reason }]) => [criterion, { value, reason, evidence: [{ kind: "response" }] }]),
    );
    judges[judgeControlName(name)] = { turns: [{ tools: [{ name: SUBMIT_TOOL_NAME, input: { scores } }] }, { text: FINAL_TEXT }] };
  }
  return judges;
}

export function judgeControlName(candidateControl: string): string {
  return `judge.${candidateControl}`;
}

/**
 * The model the judge session really runs: `control/judge` becomes `control/judge.<candidate control>`; any other
 * judge model runs as written. An error says why a scripted judge cannot grade this candidate.
 */
export function resolveJudgeModel(
  judgeModel: string,
  candidateModel: string | null,
  controls: Record<string, ControlFile>,
): { model: string } | { error: string } {
  if (judgeModel !== SCRIPTED_JUDGE_MODEL) return { model: judgeModel };
  const prefix = `${CONTROL_PROVIDER}/`;
  if (candidateModel === null) return { error: `the scripted judge ${SCRIPTED_JUDGE_MODEL} plays a control candidate's verdict, and constructed evidence has none; script the judge or use a real model` };
  if (!candidateModel.startsWith(prefix)) {
    return { error: `the scripted judge ${SCRIPTED_JUDGE_MODEL} grades only control candidates (control/<name>), and ${candidateModel} is not one; set judge.model to a real model` };
  }
  const name = candidateModel.slice(prefix.length).split("#")[0]!;
  if (!Object.hasOwn(controls, name)) return { error: `the candidate control "${name}" has no control file, so ${SCRIPTED_JUDGE_MODEL} has no verdict to submit` };
  if (!controls[name]!.verdict) {
    return { error: `the candidate control "${name}" declares no verdict; add "verdict": { "<criterion>": { "value": …, "reason": "…" } } to controls/${name}.json for ${SCRIPTED_JUDGE_MODEL}` };
  }
  return { model: `${prefix}${judgeControlName(name)}` };
}
