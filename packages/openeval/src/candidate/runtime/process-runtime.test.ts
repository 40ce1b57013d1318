// The process backend keeps the candidate runtime contract on this machine.
import { describeRuntimeContract } from "./runtime-contract.case.ts";
import { processRuntime } from "./process-runtime.ts";

describeRuntimeContract("process", { backend: processRuntime, leftovers: async () => [] });
