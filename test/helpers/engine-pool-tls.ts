// Certificates for a test engine served over TLS, made with openssl: a throw-away CA, a server certificate for the
// engine's address, and a client certificate laid out as Docker's DOCKER_CERT_PATH expects (ca.pem, cert.pem, key.pem).
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runHost } from "./engine-pool-host.ts";

export interface EngineCertificates {
  /** PEM text of the CA, the client certificate and its key. */
  caCert: string;
  clientCert: string;
  clientKey: string;
  /** A DOCKER_CERT_PATH folder: ca.pem, cert.pem (client), key.pem (client). */
  certPath: string;
  /** The files dockerd serves with (--tlscacert, --tlscert, --tlskey). */
  server: { ca: string; cert: string; key: string };
}

// P-256 keys: quick to make on a loaded machine, and both Go (dockerd) and Bun's TLS accept them.
const NEW_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

async function signCertificate(folder: string, name: string, subject: string, extensions: string): Promise<void> {
  const csr = join(folder, `${name}.csr`);
  const extensionsFile = join(folder, `${name}.ext`);
  await writeFile(extensionsFile, extensions);
  runHost(["openssl", "req", ...NEW_KEY, "-keyout", join(folder, `${name}-key.pem`), "-out", csr, "-subj", subject]);
  runHost([
    "openssl",
    "x509",
    "-req",
    "-in",
    csr,
    "-CA",
    join(folder, "ca.pem"),
    "-CAkey",
    join(folder, "ca-key.pem"),
    "-set_serial",
    `0x${randomBytes(8).toString("hex")}`,
    "-days",
    "2",
    "-extfile",
    extensionsFile,
    "-out",
    join(folder, `${name}-cert.pem`),
  ]);
}

/** Writes a CA, a server certificate whose subjectAltName is `IP:<address>`, and a client certificate under `root`. */
export async function writeEngineCertificates(root: string, address: string): Promise<EngineCertificates> {
  const folder = join(root, "tls");
  const certPath = join(root, "client");
  await mkdir(folder, { recursive: true });
  await mkdir(certPath, { recursive: true });
  runHost([
    "openssl",
    "req",
    "-x509",
    ...NEW_KEY,
    "-keyout",
    join(folder, "ca-key.pem"),
    "-out",
    join(folder, "ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=openeval test engine CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await signCertificate(
    folder,
    "server",
    `/CN=${address}`,
    `subjectAltName=IP:${address}\nextendedKeyUsage=serverAuth\n`,
  );
  await signCertificate(folder, "client", "/CN=openeval test client", "extendedKeyUsage=clientAuth\n");
  const caCert = await readFile(join(folder, "ca.pem"), "utf8");
  const clientCert = await readFile(join(folder, "client-cert.pem"), "utf8");
  const clientKey = await readFile(join(folder, "client-key.pem"), "utf8");
  await writeFile(join(certPath, "ca.pem"), caCert);
  await writeFile(join(certPath, "cert.pem"), clientCert);
  await writeFile(join(certPath, "key.pem"), clientKey, { mode: 0o600 });
  return {
    caCert,
    clientCert,
    clientKey,
    certPath,
    server: { ca: join(folder, "ca.pem"), cert: join(folder, "server-cert.pem"), key: join(folder, "server-key.pem") },
  };
}
