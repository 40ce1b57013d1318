// Runs a command cut off from every network but loopback, and reports each attempt to reach beyond it (a DNS query,
// a connection to another host): offline-sandbox.ts inside fresh network and mount namespaces. Needs root,
// util-linux `unshare`, `mount` and `setpriv`, and iproute2 `ip`; nothing leaves the namespace.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { runCommand, type CliResult, type RunOptions } from "./cli.ts";
import { makeTempDir } from "./fixtures.ts";

const SANDBOX = join(import.meta.dirname, "offline-sandbox.ts");

/** Why offline runs cannot be made here, or null when they can. */
export const offlineUnavailable: string | null =
  process.getuid?.() !== 0
    ? "needs root (network namespaces)"
    : (["unshare", "mount", "setpriv", "ip"].find((tool) => Bun.which(tool) === null)?.concat(" is not installed") ??
      null);

/** npm settings for commands run offline: none of npm's own lookups (update notice, audit, funding). */
export const NPM_QUIET = { npm_config_update_notifier: "false", npm_config_audit: "false", npm_config_fund: "false" };

export interface OfflineResult extends CliResult {
  /** Every attempt to reach beyond loopback, e.g. "DNS query for registry.npmjs.org". */
  attempts: string[];
}

export async function runOffline(argv: string[], options: RunOptions = {}): Promise<OfflineResult> {
  const attemptsFile = join(await makeTempDir("openeval-offline-"), "attempts.json");
  // No PID namespace: openeval reaps scratch folders whose owner pid is not alive, so every openeval on this machine
  // must see the same pids. --kill-child: killing the wrapper kills the sandbox, which takes the command with it.
  const launcher = [
    "unshare",
    "--net",
    "--mount",
    "--fork",
    "--kill-child",
    process.execPath,
    "--no-install",
    SANDBOX,
    attemptsFile,
  ];
  const result = await runCommand([...launcher, ...argv], options);
  const attempts = await readFile(attemptsFile, "utf8").then(
    (text) => JSON.parse(text) as string[],
    () => [`no attempts file: the sandbox failed (${result.stderr.trim()})`],
  );
  return { ...result, attempts };
}
