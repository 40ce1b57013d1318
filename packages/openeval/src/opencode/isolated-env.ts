// Owns the per-run OpenCode environment: private HOME/XDG/TMP dirs under one scratch dir, the native database path,
// a pre-seeded config dir, and the flags that keep OpenCode offline and blind to the user's own setup.
// Each choice answers a leak observed in OpenCode 1.18.33 itself (see the comments below).

import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

export interface IsolationPaths {
  home: string;
  data: string;
  config: string;
  cache: string;
  state: string;
  tmp: string;
  /** The run's native OpenCode database (`OPENCODE_DB`). */
  database: string;
}

export interface Isolation {
  /** The complete environment for OpenCode: nothing is inherited from the parent process (`env -i` style). */
  env: Record<string, string>;
  paths: IsolationPaths;
  /** The scratch folder that holds all of it: OpenCode's private files, kept from the agent. */
  root: string;
}

/** Kept minimal on purpose: the agent's shell still finds git, bash and coreutils, and nothing user-specific. */
const MINIMAL_PATH = "/usr/local/bin:/usr/bin:/bin";

const OFFLINE_FLAGS = {
  // The only flag that mattered on the wire: stops the background GET of models.opencode.ai/api.json.
  OPENCODE_DISABLE_MODELS_FETCH: "1",
  // Stops reading ~/.claude/CLAUDE.md and Claude Code skills (HOME is private anyway; this is the belt).
  OPENCODE_DISABLE_CLAUDE_CODE: "1",
  // Cheap insurance: none of these was seen on the wire, but each names a network or host-config path.
  OPENCODE_DISABLE_AUTOUPDATE: "1",
  OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  OPENCODE_DISABLE_SHARE: "1",
  OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
  OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
} as const;

const PLUGIN_PACKAGE = "@opencode-ai/plugin";

/**
 * Creates the scratch layout and returns the environment that confines OpenCode to it. Idempotent, so a later
 * stage (session export) can call it again on the same scratch dir to get the same environment.
 *
 * @example
 * const { env, paths } = await prepareIsolation("/tmp/run-1/scratch");
 * Bun.spawn(["opencode", "db", "path"], { env }); // prints paths.database
 */
export async function prepareIsolation(scratchDir: string): Promise<Isolation> {
  const root = resolve(scratchDir);
  const paths: IsolationPaths = {
    home: join(root, "home"),
    data: join(root, "data"),
    config: join(root, "config"),
    cache: join(root, "cache"),
    state: join(root, "state"),
    tmp: join(root, "tmp"),
    database: join(root, "data", "opencode", "opencode.db"),
  };
  // OpenCode reads managed config from /etc/opencode with the highest precedence; 1.18.33 lets
  // OPENCODE_TEST_MANAGED_CONFIG_DIR replace that path (seen in the embedded source), so point it at an empty dir.
  const managedConfig = join(root, "managed-config");
  for (const dir of [...Object.values(paths).filter((p) => p !== paths.database), managedConfig]) {
    await mkdir(dir, { recursive: true });
  }
  await mkdir(join(paths.data, "opencode"), { recursive: true });
  await seedConfigDir(join(paths.config, "opencode"));

  const env: Record<string, string> = {
    PATH: MINIMAL_PATH,
    HOME: paths.home,
    XDG_DATA_HOME: paths.data,
    XDG_CONFIG_HOME: paths.config,
    XDG_CACHE_HOME: paths.cache,
    XDG_STATE_HOME: paths.state,
    TMPDIR: paths.tmp,
    OPENCODE_DB: paths.database,
    OPENCODE_TEST_MANAGED_CONFIG_DIR: managedConfig,
    ...OFFLINE_FLAGS,
  };
  return { env, paths, root };
}

/**
 * OpenCode runs a detached `npm install @opencode-ai/plugin` into every config dir — the global one, and any
 * `.opencode/` of the project — (not stopped by `--pure` or any flag). It skips the install when `node_modules/` exists and every dependency is already in the lockfile, so we
 * write exactly that: no network, no `~/.npm` cache, no half-installed tree racing the run.
 */
export async function seedConfigDir(dir: string): Promise<void> {
  await mkdir(join(dir, "node_modules"), { recursive: true });
  const dependencies = { [PLUGIN_PACKAGE]: "*" };
  await writeFile(join(dir, "package.json"), JSON.stringify({ dependencies }));
  await writeFile(
    join(dir, "package-lock.json"),
    JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies } } }),
  );
}
