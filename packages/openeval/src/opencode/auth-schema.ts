// The user's OpenCode auth.json, read to hand one provider's entry to a session.
import * as z from "zod";

/** `~/.local/share/opencode/auth.json`: provider ID → entry (`{type:"api",key}`, `{type:"oauth",access,refresh,…}`). */
export const AuthFileSchema = z.record(z.string(), z.unknown());
