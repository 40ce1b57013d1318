// The scripted control models: `control/<name>[#variant]`, played from control files by the control
// server on 127.0.0.1. Every stage asks "is this a control?" the same way, here.

/** The scripted control provider: served on 127.0.0.1, never handed a real key. */
export const CONTROL_PROVIDER = "control";

/** Built-in controls of evals with their own environment: the oracle runs the task's solution/solve.sh. */
export const ORACLE_CONTROL = `${CONTROL_PROVIDER}/oracle`;

export function isControlModel(model: string): boolean {
  return model.startsWith(`${CONTROL_PROVIDER}/`);
}

/** The part after `control/`, variant included (`control/positive#x` → `positive#x`). */
export function controlName(model: string): string {
  return model.slice(CONTROL_PROVIDER.length + 1);
}
