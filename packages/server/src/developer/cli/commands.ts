import type { AddressInfo } from "node:net";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { clientRegistrationSchema, devUserCredentialsSchema, summarizeDetails, validationDetails } from "@slotgate/protocol/schemas";
import { ConfigError, loadConfig, type ServerConfig } from "../../platform/config/config.js";
import type { ChainHandle } from "../../chain-api/chain/start-chain.js";
import { CHAIN_USAGE, runChainCommand } from "./chain-commands.js";
import { CLIENT_USAGE, ClientUsageError, runClientCommand } from "./client-commands.js";
import { DEV_USER_PASSWORD_ENV, readSecret } from "./read-secret.js";
import { createDevUser, registerClient, registrationAnswer } from "../accounts.js";
import { ClientSecrets } from "../../oauth/clients/client-auth.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { rotateKeyFile } from "../../oauth/keys/key-store.js";
import { openResources, openServerDatabase, startServer } from "../../server.js";
import { listClients, toClientApplication } from "../../oauth/clients/clients-store.js";
import type { Database } from "@slotgate/storage";
import { findDevUserByEmail } from "../dev-users-store.js";
import { migrateServer } from "../../platform/migrations.js";
import { DEFAULT_SCRYPT } from "../../identity/users/passwords.js";

/** Where command output goes (stdout: JSON results; stderr: human notes), and where secrets come from. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /**
   * Reads a secret the user types or pipes (never from argv). @default standard input: prompted
   * twice without echo on a terminal, read to the end from a pipe
   */
  readSecret?(prompt: string): Promise<string>;
}

const USAGE = `Usage: slotgate-server <command>

  start                                  serve the HTTP API (PORT, HOST, DATABASE_URL, …)
  migrate                                apply database migrations and exit
  dev-user create --email E             create a developer account; the password comes from
                                         SLOTGATE_DEV_USER_PASSWORD, else stdin (piped, or typed
                                         at a prompt without echo), never from the command line
  client create --name N --redirect-uri U [--redirect-uri U2 …] --download-url D --web-url W
                --platform web|desktop|game [--blockchain] [--owner EMAIL]
                [--grant-type refresh_token] [--grant-type urn:ietf:params:oauth:grant-type:device_code] [--public]
                                         register a client; prints client_id and the one-time client_secret
                                         (--public: a game or desktop build, no secret, loopback redirect
                                         URIs such as http://127.0.0.1/callback, any port, PKCE S256)
  client list [--owner EMAIL]            list client applications as JSON
${CLIENT_USAGE}
  keys rotate                            add a new signing key to the data directory (old keys keep verifying)
${CHAIN_USAGE}

Configuration comes from environment variables; see the README.`;

const OPERATOR_EMAIL = "operator@slotgate.local";

/** Demo account seeded on embedded defaults. */
const DEMO = {
  email: "demo@slotgate.dev",
  password: "slotgate-demo-password",
  redirectUris: [
    "http://127.0.0.1:3000/callback",
    "http://localhost:3000/callback",
    "http://127.0.0.1:3000/api/slotgate/callback",
    "http://127.0.0.1:8400/callback",
  ],
} as const;

async function withDb<T>(config: ServerConfig, fn: (db: Database, pepper: string) => Promise<T>): Promise<T> {
  const res = await openResources(config);
  try {
    return await fn(res.db, res.config.clientSecretPepper!);
  } finally {
    await res.db.close();
  }
}

async function ownerId(db: Database, email: string | undefined): Promise<string> {
  if (email) {
    const row = await findDevUserByEmail(db, email.toLowerCase());
    if (!row) throw new SlotgateServerError("invalid_credentials", { message: `No developer account with email ${email}` });
    return row.id;
  }
  const existing = await findDevUserByEmail(db, OPERATOR_EMAIL);
  if (existing) return existing.id;
  const { randomBytes } = await import("node:crypto");
  return (await createDevUser({ db, scrypt: DEFAULT_SCRYPT }, OPERATOR_EMAIL, randomBytes(24).toString("base64url"))).id;
}

/** Seeds the demo developer and client once; returns what to print. */
async function seedDemo(db: Database, pepper: string, dataDir: string): Promise<Record<string, unknown>> {
  const file = join(dataDir, "demo-client.json");
  const existing = await findDevUserByEmail(db, DEMO.email);
  if (existing && existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const dev = existing ?? (await createDevUser({ db, scrypt: DEFAULT_SCRYPT }, DEMO.email, DEMO.password));
  const { row, secret } = await registerClient({ db, secrets: new ClientSecrets(pepper) }, dev.id, {
    name: "Slotgate demo app",
    redirect_uris: [...DEMO.redirectUris],
    download_url: "http://127.0.0.1:3000/download",
    web_url: "http://127.0.0.1:3000/",
    platform: "web",
    blockchain: true,
  });
  const demo = {
    developer_email: DEMO.email,
    developer_password: DEMO.password,
    client_id: row.client_id,
    client_secret: secret,
    redirect_uris: row.redirect_uris,
  };
  writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

/**
 * Runs one CLI invocation; resolves to the process exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), process.env);
 * ```
 */
export async function runCli(argv: string[], env: Record<string, string | undefined>, io: CliIo = defaultIo): Promise<number> {
  const [noun, verb] = argv;
  try {
    const config = loadConfig(env);
    if (noun === "start") {
      const running = await startServer(config);
      const chainLines = chainBanner(running.slotgate.services.chain);
      // Behind a load balancer PUBLIC_URL is not where this process listens: say both.
      const address = running.server.address() as AddressInfo;
      const listening = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;
      const where = listening === running.url ? "" : `\n  Listening on ${listening}`;
      if (config.seedDemo) {
        const demo = await seedDemo(running.slotgate.services.db, running.slotgate.services.config.clientSecretPepper!, config.dataDir);
        io.err(
          `\n  Slotgate is running at ${running.url}${where}\n  Developer center: ${running.url}/developer\n  Demo developer: ${DEMO.email} / ${DEMO.password}\n  Demo client_id: ${String(demo["client_id"])} (secret in ${join(config.dataDir, "demo-client.json")})\n${chainLines}`,
        );
      } else io.err(`\n  Slotgate is running at ${running.url}${where}\n${chainLines}`);
      const stop = () => {
        running.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      return await new Promise<number>(() => undefined);
    }
    if (noun === "migrate") {
      const db = await openServerDatabase(config, { poolSize: 2 });
      try {
        io.out(JSON.stringify({ success: true, applied: await migrateServer(db), database: db.kind }));
      } finally {
        await db.close();
      }
      return 0;
    }
    if (noun === "dev-user" && verb === "create") {
      const { values } = parseArgs({ args: argv.slice(2), options: { email: { type: "string" }, password: { type: "string" } }, strict: true });
      if (values.password !== undefined) throw usage(PASSWORD_IN_ARGV);
      if (!values.email) throw usage("email: is required (--email E)");
      const password = env[DEV_USER_PASSWORD_ENV] ?? (await (io.readSecret ?? readSecret)(`Password for ${values.email}: `));
      const creds = devUserCredentialsSchema.safeParse({ email: values.email, password });
      if (!creds.success) throw usage(summarizeDetails(validationDetails(creds.error)));
      const row = await withDb(config, (db) => createDevUser({ db, scrypt: DEFAULT_SCRYPT }, creds.data.email, creds.data.password));
      io.out(JSON.stringify({ success: true, uuid: row.uuid, email: row.email }));
      return 0;
    }
    if (noun === "client" && verb === "create") {
      const { values } = parseArgs({
        args: argv.slice(2),
        strict: true,
        options: {
          name: { type: "string" },
          "redirect-uri": { type: "string", multiple: true },
          "download-url": { type: "string" },
          "web-url": { type: "string" },
          platform: { type: "string" },
          blockchain: { type: "boolean", default: false },
          owner: { type: "string" },
          "grant-type": { type: "string", multiple: true },
          public: { type: "boolean", default: false },
        },
      });
      const request = clientRegistrationSchema.safeParse({
        name: values.name,
        redirect_uris: values["redirect-uri"],
        download_url: values["download-url"],
        web_url: values["web-url"],
        platform: values.platform,
        blockchain: values.blockchain,
        grant_types: values["grant-type"],
        token_endpoint_auth_method: values.public ? "none" : undefined,
      });
      if (!request.success) throw usage(summarizeDetails(validationDetails(request.error)));
      const out = await withDb(config, async (db, pepper) => {
        const owner = await ownerId(db, values.owner);
        const { row, secret } = await registerClient({ db, secrets: new ClientSecrets(pepper) }, owner, request.data);
        return registrationAnswer(row, secret);
      });
      io.out(JSON.stringify(out));
      return 0;
    }
    if (noun === "client" && verb === "list") {
      const { values } = parseArgs({ args: argv.slice(2), strict: true, options: { owner: { type: "string" } } });
      const clients = await withDb(config, async (db) => {
        const owner = values.owner ? await ownerId(db, values.owner) : null;
        return (await listClients(db, owner)).map(toClientApplication);
      });
      io.out(JSON.stringify({ success: true, clients }));
      return 0;
    }
    const clientCode = await runClientCommand(argv, config, (line) => io.out(line));
    if (clientCode !== null) return clientCode;
    const chainCode = await runChainCommand(argv, config, io);
    if (chainCode !== null) return chainCode;
    if (noun === "keys" && verb === "rotate") {
      if (config.signingKeys) throw usage("SIGNING_KEYS is set: rotate by adding a new key at the end of that list");
      io.out(JSON.stringify({ success: true, active_kid: await rotateKeyFile(config.dataDir) }));
      return 0;
    }
    io.err(USAGE);
    return noun === undefined || noun === "help" || noun === "--help" ? 0 : 2;
  } catch (error) {
    if (error instanceof ConfigError) io.err(`configuration error: ${error.message}`);
    else if (error instanceof UsageError || error instanceof ClientUsageError) io.err(`${error.message}\n\n${USAGE}`);
    else if (error instanceof SlotgateServerError) io.err(JSON.stringify(error.toBody()));
    else if (error instanceof Error && "code" in error && String((error as { code: unknown }).code).startsWith("ERR_PARSE_ARGS"))
      io.err(`${error.message}\n\n${USAGE}`);
    else io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    const parseError = error instanceof Error && "code" in error && String((error as { code: unknown }).code).startsWith("ERR_PARSE_ARGS");
    return error instanceof ConfigError || error instanceof UsageError || error instanceof ClientUsageError || parseError ? 2 : 1;
  }
}

/**
 * The development chain's JSON-RPC URL, chain id and contract addresses, for a developer's own tools
 * (viem, ethers, `cast`, a block explorer). Empty unless the server runs the development chain.
 */
function chainBanner(chain: ChainHandle | null): string {
  if (!chain?.rpcUrl) return "";
  const { addresses } = chain.service;
  return (
    `  Development chain: ${chain.rpcUrl} (chain id ${addresses.chainId})\n` +
    `  Contracts: XOTN ${addresses.xotn}, exchange ${addresses.exchange}, EntryPoint ${addresses.entryPoint}, factory ${addresses.factory}, paymaster ${addresses.paymaster}\n`
  );
}

const PASSWORD_IN_ARGV =
  `--password is refused: a command line is visible to every user of the machine (ps) and kept in shell history. ` +
  `Pipe the password on stdin (printf '%s\\n' "$PASSWORD" | slotgate-server dev-user create --email E), type it at the prompt, ` +
  `or set ${DEV_USER_PASSWORD_ENV}.`;

class UsageError extends Error {}
function usage(message: string): UsageError {
  return new UsageError(message);
}

const defaultIo: CliIo = {
  out: (l) => process.stdout.write(l + "\n"),
  err: (l) => process.stderr.write(l + "\n"),
  readSecret: (prompt) => readSecret(prompt, process.stdin, process.stderr, { confirmPrompt: "Repeat it: " }),
};
