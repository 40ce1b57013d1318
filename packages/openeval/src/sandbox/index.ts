// The sandbox stage (bottom floor, imports only util/): running commands under limits, killing their whole tree and
// reaping what a dead runner left. Candidates (through opencode/) and verification both use it.
export { confineCommand, detectPidNamespace, killProcessTree, type ConfinedCommand, type KillTarget } from "./process-tree.ts";
