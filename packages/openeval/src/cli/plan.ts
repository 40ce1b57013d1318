// `openeval plan`: per slot, the action `run` would take and why, plus a cost estimate. Runs nothing.
import { describeMaximum, describeSlot } from "../plan/index.ts";
import { planBenchmark } from "../run/index.ts";
import { describeInputChanges } from "../summary/index.ts";
import { defineCommand } from "./commands.ts";
import { parseScope } from "./parse-scope.ts";
import { EXIT } from "./errors.ts";

export const planCommand = defineCommand("plan", {
  async run(flags) {
    const plan = await planBenchmark({
      benchmark: flags.benchmark as string,
      run: flags.run as string | undefined,
      new: flags.new as boolean,
      scope: parseScope(flags),
    });
    // The recorded eval run's id is what `openeval retry` and `rejudge` take.
    const work = plan.slots.map((slot) => ({
      eval: slot.evalId,
      model: slot.model,
      variant: slot.variant,
      repetition: slot.repetition,
      action: slot.action,
      reason: slot.reason,
      evalRunId: slot.evalRun?.id ?? null,
    }));
    if (flags.json) {
      console.log(
        JSON.stringify({
          work,
          estimate: plan.estimate,
          maximum: plan.maximum,
          inputChanges: plan.inputChanges,
          integrity: plan.integrity,
          sinceFrozen: plan.sinceFrozen,
          unbuiltEnvironments: plan.unbuiltEnvironments,
          carry: plan.carry,
        }),
      );
      return EXIT.pass;
    }
    console.log(plan.runDirectory ? `Plan against ${plan.runDirectory}` : "Plan for a new run");
    for (const problem of plan.integrity) console.log(`  integrity error (not used): ${problem.message}`);
    for (const record of plan.inputChanges) {
      console.log(
        `  note: changed during a run of it (${record.at}; that run graded with its frozen inputs): ${describeInputChanges(record.changes)}`,
      );
    }
    if (plan.sinceFrozen && plan.sinceFrozen.changes.length > 0) {
      const { runDirectory, changes } = plan.sinceFrozen;
      console.log(
        `  changed since ${runDirectory} froze it (if you did not edit it, a candidate may have: the next run grades with it): ${describeInputChanges(changes)}`,
      );
    }
    if (plan.unbuiltEnvironments.length > 0)
      console.log(
        `  environment to build (run builds it first; \`openeval image --environments\` builds it now): ${plan.unbuiltEnvironments.join(", ")}`,
      );
    for (const { engine, images, problem } of plan.carry)
      if (images.length > 0)
        console.log(
          `  images to carry to engine ${engine} before its first sandbox (run carries them from the first engine): ${images.map((id) => id.slice(7, 19)).join(", ")}${problem ? ` (${problem})` : ""}`,
        );
    for (const slot of plan.slots)
      console.log(
        `  ${slot.action.padEnd(9)} ${describeSlot(slot)}${slot.evalRun ? ` [eval run ${slot.evalRun.id}]` : ""} — ${slot.reason}`,
      );
    const counts = new Map<string, number>();
    for (const slot of plan.slots) counts.set(slot.action, (counts.get(slot.action) ?? 0) + 1);
    console.log(
      `${[...counts].map(([action, count]) => `${count} ${action}`).join(", ")}; estimated cost: ${plan.estimate.usd === null ? "unknown (no cost history for some work)" : `$${plan.estimate.usd.toFixed(4)}`}; ${describeMaximum(plan.maximum)}`,
    );
    return EXIT.pass;
  },
});
