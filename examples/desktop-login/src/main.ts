// A desktop game's login, the way any engine does it: spawn the `slotgate-login` CLI of
// @slotgate/game-sdk-bridge, read its one JSON line, and hand the JWT to the game backend.
// Run: npm start -w @slotgate/example-desktop-login   (with `npm start` running at the repository root)
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";

const slotgateUrl = (process.env["SLOTGATE_URL"] ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
const redirectUri = process.env["SLOTGATE_REDIRECT_URI"] ?? "http://127.0.0.1:8400/callback"; // registered loopback URI

/** The line `slotgate-login` prints on stdout, exactly once. */
interface LoginLine {
  Success: boolean;
  Jwt: string | null;
  ErrorMessage: string | null;
  ErrorCode: string | null;
}

/** The CLI's path, from the package's own `bin` entry (what `npx slotgate-login` would run). */
function slotgateLoginPath(): string {
  const pkgJson = createRequire(import.meta.url).resolve("@slotgate/game-sdk-bridge/package.json");
  const bin = (JSON.parse(readFileSync(pkgJson, "utf8")) as { bin: Record<string, string> }).bin["slotgate-login"];
  if (!bin) throw new Error("@slotgate/game-sdk-bridge has no slotgate-login bin");
  return join(dirname(pkgJson), bin);
}

/**
 * The public client id. A shipped game hard-codes it; this example, run next to `npm start`, looks up
 * the demo developer's client that has the loopback redirect URI registered.
 */
async function clientId(): Promise<string> {
  const fromEnv = process.env["SLOTGATE_CLIENT_ID"];
  if (fromEnv) return fromEnv;
  const credentials = {
    email: process.env["SLOTGATE_DEV_EMAIL"] ?? "demo@slotgate.dev",
    password: process.env["SLOTGATE_DEV_PASSWORD"] ?? "slotgate-demo-password",
  };
  const login = await fetch(`${slotgateUrl}/v1/dev-user/login_devuser`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });
  const { token } = (await login.json()) as { token?: string };
  if (!token) throw new Error("set SLOTGATE_CLIENT_ID (the demo developer could not sign in)");
  const list = await fetch(`${slotgateUrl}/v1/dev-user/clients`, { headers: { authorization: `Bearer ${token}` } });
  const { clients = [] } = (await list.json()) as { clients?: { client_id: string; redirect_uris: string[] }[] };
  const found = clients.find((c) => c.redirect_uris.includes(redirectUri));
  if (!found) throw new Error(`no client of the demo developer registers ${redirectUri}; set SLOTGATE_CLIENT_ID`);
  return found.client_id;
}

/** Spawns `slotgate-login` (arguments, never a shell) and resolves its JSON line. */
function runSlotgateLogin(args: string[]): Promise<LoginLine> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [slotgateLoginPath(), ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let line: string | undefined;
    createInterface({ input: child.stdout }).once("line", (l) => {
      line = l;
    });
    child.once("error", reject);
    child.once("close", (code) => (line ? resolve(JSON.parse(line) as LoginLine) : reject(new Error(`slotgate-login exited with ${code} and no result line`))));
  });
}

try {
  const id = await clientId();
  process.stderr.write(`Opening the system browser to sign in at ${slotgateUrl} (client ${id}) …\n`);
  const result = await runSlotgateLogin([
    "--client-id",
    id,
    "--redirect-uri",
    redirectUri,
    "--slotgate-url",
    slotgateUrl,
    "--timeout-ms",
    process.env["LOGIN_TIMEOUT_MS"] ?? "120000",
  ]);
  if (!result.Success || !result.Jwt) {
    process.stdout.write(`${JSON.stringify({ signed_in: false, error: result.ErrorCode, message: result.ErrorMessage })}\n`);
    process.exitCode = 1;
  } else {
    // The game sends the JWT to its backend; here we ask the service who it belongs to.
    const validate = await fetch(`${slotgateUrl}/v1/oauth/validate`, { headers: { authorization: `Bearer ${result.Jwt}` } });
    const claims = (await validate.json()) as Record<string, unknown>;
    process.stdout.write(`${JSON.stringify({ signed_in: true, validate: claims })}\n`);
  }
} catch (err) {
  process.stderr.write(`desktop-login example: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
