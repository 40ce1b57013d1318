// Zod schemas for the external shapes the candidate stage reads: the user's OpenCode auth.json.
import * as z from "zod";

/** `~/.local/share/opencode/auth.json`: provider ID → entry (`{type:"api",key}`, `{type:"oauth",access,refresh,…}`). */
export const AuthFileSchema = z.record(z.string(), z.unknown());
