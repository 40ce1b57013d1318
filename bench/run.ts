// `npm run bench`: the performance benchmark (bench/README.md). Runs each measurement in turn, prints one table section
// per measurement, and writes every raw sample and summary to bench/results/latest.json. Not part of `npm test`.
// Flags: --quick (smoke-test sizes, writes quick.json), --only <overhead,throughput,rejudge,plan,viewer,diff,sandbox,isolation,runner-memory,environments,engine-pool,adaptive>,
// --candidate-cpus <n> (section 8's containers get n CPUs instead of the default).
import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { measureAdaptive, sectionAdaptive } from "./adaptive.ts";
import { measureEnginePool, sectionEnginePool } from "./engine-pool.ts";
import { measureEnvironments, sectionEnvironments } from "./environments.ts";
import { measureHarnessOverhead, sectionHarnessOverhead } from "./harness-overhead.ts";
import { describeMachine } from "./lib/machine.ts";
import { FULL, QUICK } from "./lib/sizes.ts";
import { now, round } from "./lib/stats.ts";
import { formatSection, type Section } from "./lib/table.ts";
import { measurePlan, sectionPlan } from "./plan.ts";
import { measureRejudge, sectionRejudge } from "./rejudge.ts";
import { measureRunnerMemory, sectionRunnerMemory } from "./runner-memory.ts";
import { measureIsolation, measureSandbox, sectionIsolation, sectionSandbox } from "./sandbox.ts";
import { measureThroughput, sectionThroughput } from "./throughput.ts";
import { measureViewerApi, sectionViewerApi } from "./viewer-api.ts";
import { measureWorkspaceDiff, sectionWorkspaceDiff } from "./workspace-diff.ts";

const MEASUREMENTS = [
  "overhead",
  "throughput",
  "rejudge",
  "plan",
  "viewer",
  "diff",
  "sandbox",
  "isolation",
  "runner-memory",
  "environments",
  "engine-pool",
  "adaptive",
] as const;

const { values: flags } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    "candidate-cpus": { type: "string" },
  },
});
const DEFAULT_CPUS_WORDS = "the default (the engine's CPUs, at most 2)";
/** Section 8's `candidate.container.cpus`, to measure how much of the container's cost is its CPU share. */
const candidateCpus = flags["candidate-cpus"] === undefined ? undefined : Number(flags["candidate-cpus"]);
if (candidateCpus !== undefined && !(candidateCpus > 0))
  throw new Error(`--candidate-cpus: "${flags["candidate-cpus"]}" is not a number of CPUs above 0, such as 2 or 1.5`);
const sizes = flags.quick ? QUICK : FULL;
const selected = new Set(flags.only ? flags.only.split(",").map((name) => name.trim()) : MEASUREMENTS);
for (const name of selected) {
  if (!(MEASUREMENTS as readonly string[]).includes(name))
    throw new Error(`--only: unknown measurement "${name}"; use ${MEASUREMENTS.join(", ")}`);
}

const started = now();
const machine = describeMachine();
const loadAverage = { start: loadavg().map((value) => round(value, 2)), end: [] as number[] };

/** Runs one measurement when selected, announcing it on stderr (stdout carries only the table). */
async function step<T>(
  name: (typeof MEASUREMENTS)[number],
  label: string,
  measure: () => Promise<T>,
): Promise<T | null> {
  if (!selected.has(name)) return null;
  process.stderr.write(`bench: ${label}…\n`);
  const start = now();
  const result = await measure();
  process.stderr.write(`bench: ${label} done in ${((now() - start) / 1000).toFixed(1)} s\n`);
  return result;
}

const harnessOverhead = await step("overhead", "1/12 harness overhead", () =>
  measureHarnessOverhead({ repetitions: sizes.overheadRepetitions }),
);
const throughput = await step("throughput", "2/12 throughput", () =>
  measureThroughput({
    evals: sizes.throughputEvals,
    concurrency: sizes.throughputConcurrency,
    rounds: sizes.throughputRounds,
  }),
);
const rejudge = await step("rejudge", "3/12 rejudge", () =>
  measureRejudge({ recordings: sizes.rejudgeRecordings, pools: sizes.rejudgePools }),
);
const plan = await step("plan", "4/12 plan", () =>
  measurePlan(sizes.plan, { repetitions: sizes.planRepetitions, loads: sizes.planLoads }),
);
const viewerApi = await step(
  "viewer",
  `5/12 viewer API on a generated run of ${sizes.viewerEvalRuns.toLocaleString("en-US")} eval runs`,
  () => measureViewerApi({ evalRuns: sizes.viewerEvalRuns }),
);
const workspaceDiff = await step("diff", "6/12 workspace diff of large changes", () => measureWorkspaceDiff());
const sandbox = await step("sandbox", "7/12 container sandbox round trips", () =>
  measureSandbox({ repetitions: sizes.sandboxRepetitions }),
);
const isolation = await step("isolation", "8/12 isolation backends (whole eval runs, process vs container)", () =>
  measureIsolation({ evals: sizes.isolationEvals, ...(candidateCpus === undefined ? {} : { candidateCpus }) }),
);
const runnerMemory = await step(
  "runner-memory",
  `9/12 runner memory over ${sizes.runnerMemorySlots.toLocaleString("en-US")} code-judged slots`,
  () => measureRunnerMemory({ slots: sizes.runnerMemorySlots }),
);
const environments = await step("environments", "10/12 task environments (image builds, eval runs in them)", () =>
  measureEnvironments({ evals: sizes.environmentEvals }),
);
const enginePool = await step("engine-pool", "11/12 a pool of 1, 2 and 3 engines in network namespaces", () =>
  measureEnginePool({ evalRuns: sizes.enginePoolEvalRuns }),
);
const adaptive = await step("adaptive", "12/12 adaptive repetitions against a fixed max (simulated)", async () =>
  measureAdaptive({ comparisons: sizes.adaptiveComparisons }),
);
loadAverage.end = loadavg().map((value) => round(value, 2));
const totalMs = round(now() - started);

const sections: Section[] = [
  ...(harnessOverhead ? [sectionHarnessOverhead(harnessOverhead)] : []),
  ...(throughput ? [sectionThroughput(throughput)] : []),
  ...(rejudge ? [sectionRejudge(rejudge)] : []),
  ...(plan ? [sectionPlan(plan)] : []),
  ...(viewerApi ? [sectionViewerApi(viewerApi)] : []),
  ...(workspaceDiff ? [sectionWorkspaceDiff(workspaceDiff)] : []),
  ...(sandbox ? [sectionSandbox(sandbox)] : []),
  ...(isolation ? sectionIsolation(isolation) : []),
  ...(runnerMemory ? [sectionRunnerMemory(runnerMemory)] : []),
  ...(environments ? sectionEnvironments(environments) : []),
  ...(enginePool ? sectionEnginePool(enginePool) : []),
  ...(adaptive ? [sectionAdaptive(adaptive)] : []),
];
const header = [
  `# openeval performance benchmark${flags.quick ? " (--quick: smoke-test sizes, not for comparison)" : ""}`,
  `date ${machine.date} · ${machine.cores} cores (${machine.cpuModel}) · ${machine.memoryGiB} GiB · ${machine.platform}`,
  `Bun ${machine.bunVersion} (${machine.bunRevision}) · OpenCode ${machine.opencodeVersion} · commit ${machine.commit}`,
  ...(isolation ? [`section 8's candidate CPUs: ${candidateCpus ?? DEFAULT_CPUS_WORDS}`] : []),
  `load average (1/5/15 min) at start ${loadAverage.start.join(" / ")}, at end ${loadAverage.end.join(" / ")} · whole script ${(totalMs / 1000).toFixed(1)} s`,
];
console.log([header.join("\n"), ...sections.map(formatSection)].join("\n\n"));

const output = join(import.meta.dirname, "results", flags.quick ? "quick.json" : "latest.json");
await mkdir(join(import.meta.dirname, "results"), { recursive: true });
const results = {
  format: "openeval.bench",
  version: 1,
  quick: flags.quick,
  candidateCpus: candidateCpus ?? null,
  machine,
  loadAverage,
  totalMs,
  sizes,
  harnessOverhead,
  throughput,
  rejudge,
  plan,
  viewerApi,
  workspaceDiff,
  sandbox,
  isolation,
  runnerMemory,
  environments,
  enginePool,
  adaptive,
};
await writeFile(output, `${JSON.stringify(results, null, 2)}\n`);
process.stderr.write(`bench: wrote ${output}\n`);
