// task.toml of a Harbor task (Harbor's task format, schema 1.x; docs/guide/harbor-tasks.md): every key openeval
// honours or refuses by name, strict at every level, so that a key it does not know is an error naming it rather
// than a setting silently dropped.
import * as z from "zod";

const seconds = z.number().positive({ message: "must be a number of seconds above 0" });
const mebibytes = z.number().int().positive({ message: "must be a whole number of MB above 0" });
/** Harbor's deprecated sizes: "2G", "512M", "1024K" (binary units). */
const size = z
  .string()
  .regex(/^\d+(\.\d+)?\s*[KMGT]i?B?$/i, { message: 'must be a size such as "2G" or "512M"' })
  .transform(toMebibytes);
/** Environment variables: names a shell accepts (the oracle's are written into its command). */
const stringMap = z.record(z.string(), z.string()).superRefine((env, context) => {
  for (const name of Object.keys(env).filter((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)))
    context.addIssue({
      code: "custom",
      path: [name],
      message: "is not an environment variable name (letters, digits and _, not starting with a digit)",
    });
});

/** A key openeval cannot honour: refused with the reason and what to do. */
function refused(reason: string) {
  return z
    .unknown()
    .superRefine((value, context) => {
      if (value !== undefined) context.addIssue({ code: "custom", message: reason });
    })
    .optional();
}

export const HarborTaskTomlSchema = z
  .strictObject({
    version: z.string().optional(),
    schema_version: z.string().optional(),
    source: z.string().optional(),
    task: z
      .strictObject({
        name: z.string().optional(),
        description: z.string().optional(),
        authors: z.array(z.strictObject({ name: z.string(), email: z.string().optional() })).optional(),
        keywords: z.array(z.string()).optional(),
      })
      .optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    agent: z
      .strictObject({
        timeout_sec: seconds.optional(),
        setup_timeout_sec: seconds.optional(),
        /** The user the agent's commands run as, instead of the Dockerfile's USER. */
        user: z.string().min(1).optional(),
      })
      .optional(),
    verifier: z
      .strictObject({
        timeout_sec: seconds.optional(),
        env: stringMap.optional(),
        user: z
          .string()
          .refine((user) => user === "root", {
            message:
              'openeval runs the verifier as root (without capabilities); only "root" is supported, or remove user',
          })
          .optional(),
      })
      .optional(),
    environment: z
      .strictObject({
        build_timeout_sec: seconds.optional(),
        cpus: z.number().positive({ message: "must be a number of CPUs above 0" }).optional(),
        memory_mb: mebibytes.optional(),
        storage_mb: mebibytes.optional(),
        memory: size.optional(),
        storage: size.optional(),
        gpus: z
          .number()
          .int()
          .refine((gpus) => gpus === 0, {
            message: "openeval runs no GPU tasks: its containers get no GPU; remove gpus (or set it to 0)",
          })
          .optional(),
        gpu_types: refused("openeval runs no GPU tasks: its containers get no GPU; remove gpu_types"),
        tpus: z
          .number()
          .int()
          .refine((tpus) => tpus === 0, {
            message: "openeval runs no TPU tasks: its containers get no TPU; remove tpus (or set it to 0)",
          })
          .optional(),
        allow_internet: z
          .boolean()
          .refine((allowed) => !allowed, {
            message:
              "the task demands open internet, which openeval never gives a candidate (only its model provider's endpoint and the hosts benchmark.ts candidate.network.allow names); set allow_internet = false or remove it to run the task without internet",
          })
          .optional(),
        docker_image: z.string().min(1).optional(),
        os: z
          .string()
          .refine((os) => os === "linux", { message: 'openeval runs Linux containers only; use "linux" or remove os' })
          .optional(),
        mcp_servers: refused(
          "MCP servers for the agent are not supported; remove mcp_servers (the candidate is OpenCode, configured by benchmark.ts and its variants)",
        ),
        skills_dir: refused(
          "skills are given to the candidate by a variant's config/ files here; remove skills_dir and add the skills as a variant",
        ),
      })
      .optional(),
    solution: z.strictObject({ env: stringMap.optional() }).optional(),
    steps: refused("multi-step tasks are not supported: openeval runs one instruction and one verifier; remove steps"),
  })
  .superRefine((toml, context) => {
    const version = toml.schema_version ?? toml.version;
    if (version !== undefined && !/^1(\.\d+)*$/.test(version))
      context.addIssue({
        code: "custom",
        path: [toml.schema_version === undefined ? "version" : "schema_version"],
        message: `is "${version}"; openeval reads Harbor's task format 1.x`,
      });
    const environment = toml.environment;
    if (environment?.memory !== undefined && environment.memory_mb !== undefined)
      context.addIssue({
        code: "custom",
        path: ["environment", "memory"],
        message: "memory_mb says the same; give one of them",
      });
    if (environment?.storage !== undefined && environment.storage_mb !== undefined)
      context.addIssue({
        code: "custom",
        path: ["environment", "storage"],
        message: "storage_mb says the same; give one of them",
      });
  });

export type HarborTaskToml = z.output<typeof HarborTaskTomlSchema>;

function toMebibytes(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([KMGT])/i.exec(value)!;
  const scale = { K: 1 / 1024, M: 1, G: 1024, T: 1024 * 1024 }[match[2]!.toUpperCase() as "K" | "M" | "G" | "T"];
  return Math.round(Number(match[1]) * scale);
}
