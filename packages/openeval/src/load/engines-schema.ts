// The container engines a run may place work on (benchmark.ts `candidate.container.engines`, or OPENEVAL_ENGINES
// with the same shape as JSON): each a name, an address, how many sandboxes it runs at once, and how it is reached
// safely (docs/guide/engine-pool.md).
import * as z from "zod";
import { isPlainRemoteTcp, PLAIN_TCP_REMEDY } from "../util/engine-address.ts";

export const ENGINE_ADDRESS_MESSAGE =
  'must be an engine address such as "tcp://127.0.0.1:2375" or "unix:///var/run/docker.sock"';

export const EngineAddressSchema = z.string().regex(/^(unix|tcp|ssh):\/\//, { message: ENGINE_ADDRESS_MESSAGE });

const ENGINE_NAME = /^[A-Za-z0-9][\w.-]*$/;

export const EngineEntrySchema = z
  .strictObject({
    name: z.string().regex(ENGINE_NAME, { message: 'must be a short name of letters, digits, ".", "_" or "-"' }),
    host: EngineAddressSchema,
    /** How many sandboxes (a candidate with its egress proxy, or a verification) it runs at once. */
    capacity: z.number().int().positive({ message: "must be how many sandboxes it may run at once (1 or more)" }),
    /** Docker's DOCKER_CERT_PATH convention: a folder holding ca.pem, cert.pem and key.pem; the server is verified. */
    tls: z
      .strictObject({
        certPath: z.string().min(1, { message: "must name the folder of ca.pem, cert.pem and key.pem" }),
      })
      .optional(),
    /** Plain TCP to another machine, accepted knowingly; every run warns. */
    insecure: z.literal(true).optional(),
  })
  .superRefine((entry, context) => {
    const plainRemote = isPlainRemoteTcp(entry.host, { tls: entry.tls !== undefined });
    if (plainRemote && !entry.insecure)
      context.addIssue({
        code: "custom",
        path: ["host"],
        message: `engine "${entry.name}" at ${entry.host} is plain TCP on an address other than loopback, which makes it root on its host for anyone who can reach it: ${PLAIN_TCP_REMEDY}`,
      });
    if (entry.insecure && !plainRemote)
      context.addIssue({
        code: "custom",
        path: ["insecure"],
        message: `engine "${entry.name}": insecure: true is only for a plain tcp:// engine on another machine; remove it`,
      });
    if (entry.tls && !entry.host.startsWith("tcp://"))
      context.addIssue({
        code: "custom",
        path: ["tls"],
        message: `engine "${entry.name}": tls applies to tcp:// engines only; remove it or give a tcp:// host`,
      });
  });

export type EngineEntry = z.infer<typeof EngineEntrySchema>;

export const EnginesSchema = z
  .array(EngineEntrySchema)
  .min(1, { message: "list at least one engine, or remove engines" })
  .superRefine((engines, context) => {
    const seen = new Set<string>();
    engines.forEach((engine, index) => {
      if (seen.has(engine.name))
        context.addIssue({ code: "custom", path: [index, "name"], message: `duplicate engine name "${engine.name}"` });
      seen.add(engine.name);
    });
  });
