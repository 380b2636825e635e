import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** PEM files of a test PKI: their paths (for the CHAIN_SERVICE_TLS_* variables) and contents. */
export interface TestPki {
  dir: string;
  /** The trusted CA's certificate. */
  ca: string;
  /** The chain service's certificate (SAN 127.0.0.1, localhost) and key, issued by `ca`. */
  serverCert: string;
  serverKey: string;
  /** A caller's certificate and key for mutual TLS, issued by `ca`. */
  clientCert: string;
  clientKey: string;
  /** Another CA, and a server and a client certificate it issued (same names): trusted by nobody. */
  rogueCa: string;
  rogueServerCert: string;
  rogueServerKey: string;
  rogueClientCert: string;
  rogueClientKey: string;
  read(path: string): Buffer;
  remove(): void;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
}

function authority(dir: string, name: string): void {
  openssl(
    dir,
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    `${name}.key`,
    "-out",
    `${name}.pem`,
    "-days",
    "2",
    "-subj",
    `/CN=${name}`,
  );
}

function issue(dir: string, ca: string, name: string, extensions: string): void {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(
    dir,
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    `${name}.key`,
    "-out",
    `${name}.csr`,
    "-subj",
    `/CN=${name}`,
  );
  openssl(
    dir,
    "x509",
    "-req",
    "-in",
    `${name}.csr`,
    "-CA",
    `${ca}.pem`,
    "-CAkey",
    `${ca}.key`,
    "-CAcreateserial",
    "-out",
    `${name}.pem`,
    "-days",
    "2",
    "-extfile",
    `${name}.ext`,
  );
}

const SERVER_EXT = "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n";
const CLIENT_EXT = "extendedKeyUsage=clientAuth\n";

/**
 * A fresh test PKI made with the `openssl` command (Debian's `openssl` package): a CA with a server
 * and a client certificate, and a rogue CA with its own pair.
 */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), "sg-pki-"));
  authority(dir, "ca");
  issue(dir, "ca", "server", SERVER_EXT);
  issue(dir, "ca", "client", CLIENT_EXT);
  authority(dir, "rogue-ca");
  issue(dir, "rogue-ca", "rogue-server", SERVER_EXT);
  issue(dir, "rogue-ca", "rogue-client", CLIENT_EXT);
  const path = (file: string) => join(dir, file);
  return {
    dir,
    ca: path("ca.pem"),
    serverCert: path("server.pem"),
    serverKey: path("server.key"),
    clientCert: path("client.pem"),
    clientKey: path("client.key"),
    rogueCa: path("rogue-ca.pem"),
    rogueServerCert: path("rogue-server.pem"),
    rogueServerKey: path("rogue-server.key"),
    rogueClientCert: path("rogue-client.pem"),
    rogueClientKey: path("rogue-client.key"),
    read: (file) => readFileSync(file),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
