// images/verification/npm-packages.json: the packages vendored into the verification image, pinned by integrity.
import * as z from "zod";

export const NpmPackagesManifestSchema = z.object({
  comment: z.string().optional(),
  packages: z.array(
    z.strictObject({
      name: z.string().min(1),
      version: z.string().min(1),
      integrity: z.string().regex(/^sha512-[A-Za-z0-9+/]+=*$/, "an npm sha512 integrity"),
      into: z.string().regex(/^vendor\/[a-z0-9._-]+$/, "vendor/<folder>"),
    }),
  ),
});

export type NpmPackagesManifest = z.infer<typeof NpmPackagesManifestSchema>;
