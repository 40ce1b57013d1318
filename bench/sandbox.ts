// Isolation costs. Section 7: container sandbox round trips (create, copy a small workspace in, run,
// copy out, remove), serially and four at a time — the floor the container engine adds. Section 8: whole eval runs
// of the same scripted session through runBenchmark with each isolation backend, at concurrency 1 and 4, and where
// each eval run's time went, phase by phase, in each backend.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCandidateImage } from "../packages/openeval/src/candidate/index.ts";
import { runBenchmark } from "../packages/openeval/src/index.ts";
import type { Isolation } from "../packages/openeval/src/load/index.ts";
import {
  openSandboxEngine,
  isEngineReachable,
  type SandboxEngine,
  type SandboxSpec,
  type TarEntry,
} from "../packages/openeval/src/sandbox/index.ts";
import { writeTinyBenchmark } from "./lib/fixtures.ts";
import { medianPhases, recordPhases, type PhaseTotals } from "./lib/phases.ts";
import { now, round, summarize, type Summary } from "./lib/stats.ts";
import type { Section } from "./lib/table.ts";
import { withTempDir } from "./lib/temp.ts";

export interface IsolationRun {
  isolation: Isolation;
  concurrency: number;
  evalRuns: number;
  wallMs: number;
  /** Wall time per eval run (at concurrency 1 this is the per-eval-run cost, OpenCode and judging included). */
  msPerEvalRun: number;
  evalRunsPerMinute: number;
  /** Where an eval run's time went: each phase's median over the eval runs, ms (PHASES names them). */
  phases: PhaseTotals;
}

export interface IsolationBench {
  runs: IsolationRun[];
  /** Container minus process, per eval run at concurrency 1 (aim ≤ 1500 ms). */
  extraMsPerEvalRun: number;
  /** Container / process eval runs per minute at concurrency 4 (aim ≥ 0.8). */
  throughputRatio: number;
}

/**
 * The same scripted sessions (tiny evals × control/positive) as whole runs of runBenchmark, once per isolation
 * backend, at concurrency 1 and 4. Null without a container engine.
 */
export async function measureIsolation(options: {
  evals: number;
  candidateCpus?: number;
}): Promise<IsolationBench | null> {
  if (!(await isEngineReachable())) return null;
  await buildCandidateImage();
  return withTempDir("isolation", async (root) => {
    const benchmarkDir = join(root, "benchmark");
    await writeTinyBenchmark(benchmarkDir, options.evals, {
      models: ["control/positive"],
      repetitions: 1,
      ...(options.candidateCpus === undefined ? {} : { candidateCpus: options.candidateCpus }),
    });
    const runs: IsolationRun[] = [];
    for (const concurrency of [1, 4]) {
      for (const isolation of ["process", "container"] as const) {
        let evalRuns = 0;
        const recorder = recordPhases();
        const start = now();
        await runBenchmark({
          benchmark: benchmarkDir,
          new: true,
          concurrency,
          scope: { isolation },
          onEvent: (event) => {
            recorder.onEvent(event);
            if (event.type === "candidate.finished") evalRuns++;
          },
        }).finally(() => recorder.stop());
        const wallMs = now() - start;
        const phases = medianPhases(withOtherPhases(recorder.stop()));
        runs.push({
          isolation,
          concurrency,
          evalRuns,
          wallMs: round(wallMs),
          msPerEvalRun: round(wallMs / evalRuns),
          evalRunsPerMinute: round((evalRuns * 60_000) / wallMs, 1),
          phases,
        });
      }
    }
    const find = (isolation: Isolation, concurrency: number) =>
      runs.find((run) => run.isolation === isolation && run.concurrency === concurrency)!;
    return {
      runs,
      extraMsPerEvalRun: round(find("container", 1).msPerEvalRun - find("process", 1).msPerEvalRun),
      throughputRatio: round(find("container", 4).evalRunsPerMinute / find("process", 4).evalRunsPerMinute, 2),
    };
  });
}

/**
 * The phases of section 8's breakdown, in the order of an eval run, indented by what holds them: the runner's events,
 * then what runOpenCode and the candidate container publish. "candidate.other" is derived (see withOtherPhases).
 */
export const PHASES: [name: string, label: string][] = [
  ["candidate", "candidate (candidate.started → finished)"],
  ["container.connect", "  engine: connect (ping)"],
  ["opencode.setup", "  OpenCode set-up (isolated HOME, auth entry)"],
  ["opencode.launch", "  launch"],
  ["container.volume", "    shared volume for the egress socket"],
  ["container.proxy-create", "    egress proxy container: create + start"],
  ["container.proxy-listen", "    egress proxy: bun start → listening"],
  ["container.engine-cpus", "    engine: CPUs (info)"],
  ["container.candidate-create", "    candidate container: create + start"],
  ["container.lay-workspace", "  environment: its working directory copied out (the starting workspace)"],
  ["container.copy-in", "    scratch folder and tool user's HOME copy-in (read + tar + put)"],
  ["container.forwarders", "    forwarders: bun start → listening"],
  ["opencode.first-event", "  OpenCode start (launched → first event)"],
  ["opencode.session", "  session (first event → exit)"],
  ["opencode.after-exit", "  after exit (stray sweep, drain)"],
  ["opencode.collect", "  collect"],
  ["container.copy-out", "    copy-out of the scratch folder"],
  ["container.proxy-remove", "    egress proxy: remove"],
  ["container.remove", "  remove containers + volume"],
  ["candidate.other", "  other (workspace, snapshots, recording)"],
  ["judge", "judge (judge.started → finished)"],
];

/** Adds, per eval run, the candidate's time outside the phases published inside it. */
export function withOtherPhases(byEvalRun: Map<string, PhaseTotals>): Map<string, PhaseTotals> {
  const inside = [
    "container.connect",
    "opencode.setup",
    "opencode.launch",
    "opencode.first-event",
    "opencode.session",
    "opencode.after-exit",
    "opencode.collect",
    "container.remove",
  ];
  for (const totals of byEvalRun.values())
    totals["candidate.other"] = (totals.candidate ?? 0) - inside.reduce((sum, name) => sum + (totals[name] ?? 0), 0);
  return byEvalRun;
}

export function sectionIsolation(result: IsolationBench): Section[] {
  const find = (isolation: Isolation) =>
    result.runs.find((run) => run.isolation === isolation && run.concurrency === 1)!;
  const [processRun, containerRun] = [find("process"), find("container")];
  const cell = (run: IsolationRun, name: string) => (run.phases[name] === undefined ? "—" : String(run.phases[name]));
  const difference = (name: string) => (containerRun.phases[name] ?? 0) - (processRun.phases[name] ?? 0);
  const rows = PHASES.map(([name, label]) => [
    label,
    cell(processRun, name),
    cell(containerRun, name),
    String(round(difference(name))),
  ]);
  rows.push([
    "eval run (wall ÷ eval runs)",
    String(processRun.msPerEvalRun),
    String(containerRun.msPerEvalRun),
    String(result.extraMsPerEvalRun),
  ]);
  return [
    {
      title: "8. Isolation backends: whole eval runs of the same scripted session (runBenchmark, control/positive)",
      columns: ["isolation", "concurrency", "eval runs", "wall s", "ms per eval run", "eval runs/min"],
      rows: result.runs.map((run) => [
        run.isolation,
        String(run.concurrency),
        String(run.evalRuns),
        (run.wallMs / 1000).toFixed(1),
        String(run.msPerEvalRun),
        String(run.evalRunsPerMinute),
      ]),
      notes: [
        `container − process at concurrency 1: ${result.extraMsPerEvalRun} ms per eval run (aim ≤ 1500); throughput ratio at concurrency 4: ${result.throughputRatio} (aim ≥ 0.8).`,
      ],
    },
    {
      title: "8. Isolation backends, phases at concurrency 1 (median ms per eval run)",
      columns: ["phase", "process ms", "container ms", "container − process ms"],
      rows,
      notes: [
        "Indented phases run inside the one above them; medians of each phase need not add up. Steps that run concurrently each show their own time.",
        "— : the backend has no such phase. Every concurrency's phases are in the JSON (isolation.runs[].phases).",
      ],
    },
  ];
}

export interface SandboxBench {
  image: string | null;
  /** Empty when no container engine answers. */
  engines: {
    engine: string;
    roundTripMs: Summary;
    samples: number[];
    throughputPerSecond: number;
    concurrency: number;
  }[];
}

const encoder = new TextEncoder();
const WORKSPACE: TarEntry[] = Array.from({ length: 20 }, (_, index) => ({
  type: "file" as const,
  path: `src/file-${index}.ts`,
  data: encoder.encode(`export const value${index} = ${index};\n`.repeat(50)),
  mode: 0o644,
}));

async function roundTrip(engine: SandboxEngine, spec: SandboxSpec): Promise<number> {
  const start = now();
  const sandbox = await engine.create(spec);
  try {
    await sandbox.copyIn("/workspace", [
      { type: "directory", path: "src", mode: 0o755, ...sandbox.user },
      ...WORKSPACE.map((entry) => ({ ...entry, ...sandbox.user })),
    ]);
    const outcome = await sandbox.run(["sh", "-c", "cat src/*.ts > /dev/null && echo done > result.txt"], {
      deadline: Date.now() + 60_000,
    });
    if (outcome.exitCode !== 0) throw new Error(`bench: the round-trip command exited ${outcome.exitCode}`);
    const host = await mkdtemp(join(tmpdir(), "openeval-bench-out-"));
    const copied = await sandbox
      .copyOut("/workspace", join(host, "workspace"), { maxBytes: 16 << 20 })
      .finally(() => rm(host, { recursive: true, force: true }));
    if (copied.kind !== "copied") throw new Error(`bench: copying the workspace out gave ${copied.kind}`);
  } finally {
    await sandbox.remove();
  }
  return now() - start;
}

async function measureEngine(
  name: string,
  engine: SandboxEngine,
  spec: SandboxSpec,
  repetitions: number,
  concurrency: number,
) {
  await roundTrip(engine, spec); // warm-up (image layers, page cache)
  const samples: number[] = [];
  for (let index = 0; index < repetitions; index++) samples.push(await roundTrip(engine, spec));
  const batch = concurrency * 3;
  const start = now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < batch) await roundTrip(engine, spec);
    }),
  );
  const throughputPerSecond = batch / ((now() - start) / 1000);
  return {
    engine: name,
    roundTripMs: summarize(samples),
    samples: samples.map((sample) => round(sample)),
    throughputPerSecond: round(throughputPerSecond, 2),
    concurrency,
  };
}

export async function measureSandbox(options: { repetitions: number; image?: string }): Promise<SandboxBench> {
  const image = options.image ?? process.env.OPENEVAL_BASE_IMAGE ?? "debian:bookworm-slim";
  const spec: SandboxSpec = {
    image,
    labels: { "openeval.bench": "sandbox" },
    folders: ["/workspace"],
    workdir: "/workspace",
    limits: { cpus: 1, memoryMiB: 512, pids: 256, tmpMiB: 64 },
    lifetimeMs: 120_000,
  };
  if (!(await isEngineReachable())) return { image: null, engines: [] };
  return {
    image,
    engines: [await measureEngine("container", await openSandboxEngine("container"), spec, options.repetitions, 4)],
  };
}

export function sectionSandbox(result: SandboxBench): Section {
  return {
    title: "7. Container sandbox round trip (create, copy 20 files in, run, copy out, remove)",
    columns: ["engine", "median ms", "min ms", "max ms", "round trips/s at concurrency 4"],
    rows: result.engines.map((row) => [
      row.engine,
      String(round(row.roundTripMs.median)),
      String(round(row.roundTripMs.min)),
      String(round(row.roundTripMs.max)),
      String(row.throughputPerSecond),
    ]),
    notes: [
      result.image === null ? "No container engine answers: not measured." : `Image ${result.image}.`,
      "Not a whole eval run (section 8 is, and compares the container with the process backend): OpenCode's own start comes on top.",
    ],
  };
}
