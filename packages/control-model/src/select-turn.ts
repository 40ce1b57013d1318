// The step rule: which turn of a control file answers a request, derived statelessly from the request's messages.
import type { ControlFile, ControlTurn } from "./schema.ts";

/**
 * The model step of the current user turn: the number of assistant messages after the last user message.
 * Derived from the request alone, so concurrent sessions and retried requests need no server state.
 */
export function countStep(messages: readonly { role: string }[]): number {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  return messages.slice(lastUser + 1).filter((message) => message.role === "assistant").length;
}

/** `turns[step]`; steps past the end repeat the last turn (a last turn with tools never stops calling them). */
export function selectTurn(control: ControlFile, step: number): ControlTurn {
  const turn = control.turns[Math.min(step, control.turns.length - 1)];
  if (turn === undefined) throw new Error("unreachable: the schema requires at least one turn");
  return turn;
}
