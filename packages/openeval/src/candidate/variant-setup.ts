// Lays an agent variant into one eval run's scratch, before OpenCode starts. Everything goes into the
// scratch folder — the workspace, or the isolated OpenCode config dir — so the container backend gets it with the
// rest of the scratch copy and nothing names a host path.
//
// Instructions become the candidate's global AGENTS.md (`$XDG_CONFIG_HOME/opencode/AGENTS.md`, which OpenCode reads
// as global rules) rather than the workspace's AGENTS.md or a config `instructions` path: the workspace, its
// snapshots and its diff stay identical across variants (judges compare like with like), and unlike an
// `instructions` path inside OPENCODE_CONFIG_CONTENT it needs no rewriting when the scratch is mapped into a container.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { VariantDefinition } from "../load/index.ts";
import { seedConfigDir } from "../opencode/index.ts";
import { isRecord } from "../util/is-record.ts";

/** The name the variant's agent is given in the session's config; `opencode run --agent` selects it. */
export const VARIANT_AGENT = "openeval-variant";

/** Writes the variant's files and instructions; `configDir` is the isolated OpenCode config dir (`…/config/opencode`). */
export async function layVariant(
  variant: VariantDefinition,
  places: { workspace: string; configDir: string },
): Promise<void> {
  const files = {
    ...variant.files,
    ...(variant.instructions === null ? {} : { "config/AGENTS.md": variant.instructions }),
  };
  for (const [path, text] of Object.entries(files)) {
    const [root, ...rest] = path.split("/");
    const target = join(root === "workspace" ? places.workspace : places.configDir, ...rest);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  // A workspace .opencode/ is a config dir too: seeded like the global one, OpenCode installs nothing into it.
  if (Object.keys(files).some((path) => path.startsWith("workspace/.opencode/")))
    await seedConfigDir(join(places.workspace, ".opencode"));
}

/**
 * The session's OpenCode config: the variant's overlay under the harness's own keys (load/ refused overlays of
 * those), plus its agent, run as a primary agent.
 */
export function variantConfig(
  variant: VariantDefinition,
  harness: Record<string, unknown>,
): { config: Record<string, unknown>; agent?: string } {
  const overlay = variant.config ?? {};
  if (variant.agent === null) return { config: { ...overlay, ...harness } };
  const agents = isRecord(overlay.agent) ? overlay.agent : {};
  return {
    config: { ...overlay, ...harness, agent: { ...agents, [VARIANT_AGENT]: { ...variant.agent, mode: "primary" } } },
    agent: VARIANT_AGENT,
  };
}
