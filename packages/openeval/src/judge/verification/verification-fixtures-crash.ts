// Test helper process: starts a long verification and announces it, so that a test can kill this process mid-run
// and check that the container it leaves is reaped. Usage: bun verification-fixtures-crash.ts <image> <evidence> <dir>
import { openEvidence } from "../../recording/index.ts";
import { connectContainerEngine } from "../../sandbox/index.ts";
import { runVerification } from "./run-verification.ts";

const [image, evidenceDirectory, directory] = process.argv.slice(2) as [string, string, string];
const evidence = await openEvidence(evidenceDirectory);
const interval = setInterval(async () => {
  const running = await (await connectContainerEngine()).list({ "openeval.judge-run": "jr_crashed" });
  if (running.length > 0) {
    clearInterval(interval);
    console.log(running[0]!);
  }
}, 100);
await runVerification({
  image,
  evidence,
  directory,
  labels: { judgeRun: "jr_crashed" },
  limits: { cpus: 0.5, memoryMiB: 128, pids: 32, logBytes: 1024, artifactBytes: 1024 },
  request: { timeoutMs: 120_000, commands: [["sleep", "120"]] },
});
