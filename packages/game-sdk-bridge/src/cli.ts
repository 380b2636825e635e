#!/usr/bin/env node
/**
 * `slotgate-login`: the loopback login as a process any engine can spawn.
 * See `slotgate-login --help` and the package README.
 * @module
 */
import { runCli } from "./cli/run.js";

declare const __PACKAGE_VERSION__: string | undefined;

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => controller.abort());
}

void runCli({
  argv: process.argv.slice(2),
  env: process.env,
  signal: controller.signal,
  version: typeof __PACKAGE_VERSION__ === "string" ? __PACKAGE_VERSION__ : "0.0.0-dev",
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then((code) => {
  // Exit once stdout is flushed, even if a stray handle (e.g. a slow browser opener) is still open.
  process.stdout.write("", () => process.exit(code));
});
