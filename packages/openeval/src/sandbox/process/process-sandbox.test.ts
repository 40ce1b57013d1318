// The sandbox contract on the process engine, once with a PID namespace (when this machine allows one) and once
// with the /proc walk that finds detached processes by the sandbox's marker.
import { makeTempDir } from "../../../../../test/helpers/fixtures.ts";
import { findSleeps } from "../fixtures/process-tree.ts";
import { describeSandboxContract } from "../sandbox-contract.case.ts";
import { createProcessEngine } from "./process-sandbox.ts";

const directory = await makeTempDir("openeval-sandbox-contract-");
const alive = async (_: unknown, token: string) => (await findSleeps(["300", token])).length > 0;

describeSandboxContract("process engine (PID namespace when available)", { engine: async () => createProcessEngine({ directory }), spec: async () => ({}), alive });
describeSandboxContract("process engine (/proc walk)", { engine: async () => createProcessEngine({ directory, pidNamespace: false }), spec: async () => ({}), alive });
