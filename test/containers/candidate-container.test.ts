// The acceptance journey of container isolation: a control candidate runs in a container. Its bash calls search the whole
// container for the eval's judge files, reference fix, controls, results and the host's folders and find none;
// it cannot reach a host port that is not its provider (the decoy server sees zero connections, the egress proxy's
// socket is closed to the agent's user or the proxy refuses a CONNECT to it), while its own model calls work and the
// run completes and is graded. Its CPU quota is the default share of the engine's CPUs. Afterwards no container or
// volume of the run remains.
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import { defaultCandidateCpus } from "../../packages/openeval/src/candidate/container/candidate-container.ts";
import { readResults } from "../../packages/openeval/src/index.ts";
import { ResultsStore } from "../../packages/openeval/src/records/index.ts";
import { openSandboxEngine, isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

const reachable = await isEngineReachable();
const decoy = createServer((socket) => socket.destroy());
const decoyConnections: number[] = [];
decoy.on("connection", () => decoyConnections.push(Date.now()));
let directory: string;
let run: CliResult;

function snoopCommand(decoyPort: number, hostFolders: string[]): string {
  const names = ["judge.ts", "judge.md", "REFERENCE_FIX.md", "controls", "benchmark.ts", "eval-runs", "results"]
    .map((name) => `-name ${name}`)
    .join(" -o ");
  const python = [
    "import socket",
    "try:",
    `    socket.create_connection(("127.0.0.1", ${decoyPort}), timeout=3); print("HIT decoy connected")`,
    "except OSError as error:",
    '    print("DECOY refused", error.errno)',
    "s = socket.socket(socket.AF_UNIX)",
    "try:",
    '    s.connect("/run/openeval-egress/egress.sock")',
    `    s.sendall(b"CONNECT 127.0.0.1:${decoyPort} HTTP/1.1\\r\\n\\r\\n")`,
    '    print("PROXY", s.recv(100).split(b" ")[1].decode())',
    "except PermissionError:",
    '    print("PROXY denied")',
  ].join("\n");
  return [
    `{ find / -xdev \\( ${names} \\) 2>/dev/null | sed 's/^/HIT /'`,
    ...hostFolders.map((folder) => `test -e ${folder} && echo "HIT host folder"`),
    "ls -A /root 2>/dev/null | sed 's/^/HIT root home /'",
    // cgroup v2's cpu.max, else v1's quota and period: "<quota> <period>" either way. `head`, not `cat`: OpenCode
    // refuses a bash command whose `cat` names a path outside the workspace.
    'echo "CPU $(head -n1 /sys/fs/cgroup/cpu.max 2>/dev/null || echo $(head -n1 /sys/fs/cgroup/cpu/cpu.cfs_quota_us) $(head -n1 /sys/fs/cgroup/cpu/cpu.cfs_period_us))"',
    `python3 -c '${python}'`,
    "id -u; } > found.txt 2>&1; cat found.txt",
  ].join("; ");
}

beforeAll(async () => {
  if (!reachable) return;
  await buildCandidateImage({
    onProgress: (event) => event.kind === "phase" && console.error(`[candidate image] ${event.message}`),
  });
  await new Promise<void>((resolve) => decoy.listen(0, "127.0.0.1", resolve));
  const decoyPort = (decoy.address() as { port: number }).port;
  // The quota per 100 ms period that the engine sets from the CPU limit.
  const cpuMax = `CPU ${Math.round(defaultCandidateCpus(await (await openSandboxEngine("container")).cpus()) * 100_000)} 100000`;
  directory = await writeTree({});
  await writeTree(
    {
      "benchmark.ts": `export default { models: ["control/snoop"], repetitions: 1, candidate: { timeoutMs: 180_000, isolation: "container" } };\n`,
      "evals/snoop/prompt.md": "Look around.\n",
      "evals/snoop/REFERENCE_FIX.md": "the answer key\n",
      "evals/snoop/judge.ts": `export default async ({ workspace }) => {
  const found = await workspace.text("found.txt");
  return { scores: { no_answer_key: !found.includes("HIT"), decoy_unreachable: found.includes("DECOY refused"), proxy_refused: /PROXY (403|denied)/.test(found), non_root: /^10003$/m.test(found), default_cpus: found.includes(${JSON.stringify(cpuMax)}) }, found };
};\n`,
      "evals/snoop/controls/snoop.json": JSON.stringify({
        turns: [
          {
            tools: [
              {
                name: "bash",
                input: {
                  command: snoopCommand(decoyPort, [directory, join(directory, "results")]),
                  description: "look around",
                },
              },
            ],
          },
          { text: "done" },
        ],
      }),
    },
    directory,
  );
  run = await runCli(["run", "--benchmark", directory], { timeoutMs: 400_000 });
}, 900_000);

afterAll(() => {
  decoy.close();
});

describe.skipIf(!reachable)("a control candidate in a container", () => {
  it("completes and is graded: no answer key or host folder inside, no way to a host port but its provider", () => {
    expect(run.exitCode, run.stderr).toBe(0);
    const root = join(directory, "results");
    const store = ResultsStore.open(join(root, readdirSync(root)[0]!), { readonly: true });
    try {
      const [evalRun] = store.evalRuns();
      expect(evalRun).toMatchObject({
        state: "completed",
        infrastructureError: false,
        input: { isolation: "container" },
      });
      const [judgeRun] = store.judgeRuns(evalRun!.id);
      expect(judgeRun?.scores, JSON.stringify(judgeRun)).toEqual({
        no_answer_key: { value: 1, source: "judge.ts" },
        decoy_unreachable: { value: 1, source: "judge.ts" },
        proxy_refused: { value: 1, source: "judge.ts" },
        non_root: { value: 1, source: "judge.ts" },
        default_cpus: { value: 1, source: "judge.ts" },
      });
      const egressLog = readFileSync(join(store.directory, "eval-runs", evalRun!.id, "logs", "egress.log"), "utf8");
      // The agent's user cannot open the proxy's socket; had it, the proxy would have refused and logged the CONNECT.
      expect(egressLog.split("\n").filter((line) => line !== "" && !/^(listening|refused) /.test(line))).toEqual([]);
    } finally {
      store.close();
    }
    expect(decoyConnections).toEqual([]);
  });

  it("reads back as judged through readResults (the viewer's path), with the runtime it ran in", async () => {
    const results = await readResults(join(directory, "results", readdirSync(join(directory, "results"))[0]!));
    expect(
      results.models.map((model) => ({
        model: model.model,
        judged: model.judged,
        slots: model.slots,
        unsandboxed: model.unsandboxed,
      })),
    ).toEqual([{ model: "control/snoop", judged: 1, slots: 1, unsandboxed: false }]);
  });

  it("leaves no container or volume of the run behind", async () => {
    const runId = readdirSync(join(directory, "results"))[0]!;
    expect(await (await openSandboxEngine("container")).list({ "openeval.run": runId })).toEqual([]);
    const volumes = Bun.spawnSync(["/usr/bin/docker", "volume", "ls", "-q", "--filter", `label=openeval.run=${runId}`])
      .stdout.toString()
      .trim();
    expect(volumes).toBe("");
  });
});
