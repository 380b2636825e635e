import { developmentKey } from "@slotgate/chain-service";
import { computeAddress } from "ethers";
import type { ServerConfig } from "./config.js";
import { CHAIN_ENV } from "./chain-env.js";
import { ConfigError, type Env, isLoopbackHost, optional } from "./env.js";

/** How the process runs: `SLOTGATE_ENV`, else `production` when `NODE_ENV=production`, else `development`. */
export type Environment = "development" | "production";

/**
 * The environment of the process: `SLOTGATE_ENV` (`development` or `production`) when set, else
 * `production` when `NODE_ENV=production`, else `development`.
 *
 * @example
 * ```ts
 * environmentOf({ NODE_ENV: "production" }); // "production"
 * ```
 */
export function environmentOf(env: Env): Environment {
  const explicit = optional(env, "SLOTGATE_ENV")?.toLowerCase();
  if (explicit !== undefined && explicit !== "development" && explicit !== "production")
    throw new ConfigError("SLOTGATE_ENV", "must be development or production");
  if (explicit !== undefined) return explicit;
  return optional(env, "NODE_ENV") === "production" ? "production" : "development";
}

/** One development default production mode refuses: the variable to set and what is wrong. */
export interface ProductionProblem {
  variable: string;
  problem: string;
}

/**
 * Production mode refused to start: every development default found, each naming its variable
 * (`problems`); the message lists them all, so one start shows everything to fix.
 *
 * @example
 * ```ts
 * try { refuseDevelopmentDefaults(config, "server"); } catch (e) { if (e instanceof ProductionRefusal) console.error(e.problems); }
 * ```
 */
export class ProductionRefusal extends ConfigError {
  override name = "ProductionRefusal";
  constructor(readonly problems: ProductionProblem[]) {
    super(problems[0]!.variable, "");
    this.message = `production mode (SLOTGATE_ENV=production) refuses development defaults:\n${problems.map((p) => `  - ${p.variable} ${p.problem}`).join("\n")}`;
  }
}

/** Addresses of the development chain's well-known keys (the first twenty of its mnemonic). */
let wellKnown: Set<string> | undefined;
function isWellKnownKey(privateKey: string): boolean {
  wellKnown ??= new Set(Array.from({ length: 20 }, (_, i) => computeAddress(developmentKey(i)).toLowerCase()));
  return wellKnown.has(computeAddress(privateKey).toLowerCase());
}

/** Which process is starting: the HTTP server (with its chain service in process, or a client of a remote one) or `slotgate-server chain-service`. */
export type ProcessRole = "server" | "chain-service";

/**
 * The development defaults a production start refuses (docs/decisions/production-mode.md), for the
 * HTTP server or the chain-service process: generated signing keys or pepper, the embedded database,
 * the development mailbox, the demo seed, rate limits off, a missing or plain-`http:` public URL off
 * loopback, the development chain or well-known chain keys, generated chain keys, and a plain-text or
 * unauthenticated chain-service link. Empty when nothing is wrong.
 *
 * @example
 * ```ts
 * productionProblems(loadConfig({ SLOTGATE_ENV: "production" }), "server").map((p) => p.variable); // ["SIGNING_KEYS", …]
 * ```
 */
export function productionProblems(config: ServerConfig, role: ProcessRole): ProductionProblem[] {
  const problems: ProductionProblem[] = [];
  const refuse = (variable: string, problem: string) => problems.push({ variable, problem });
  if (!config.databaseUrl) refuse("DATABASE_URL", "is required: the embedded database (PGlite) is for development");
  const { chain } = config;
  if (role === "server") {
    if (!config.signingKeys) refuse("SIGNING_KEYS", "is required: generated signing keys are for development");
    if (!config.clientSecretPepper) refuse("CLIENT_SECRET_PEPPER", "is required: a generated pepper is for development");
    if (!config.mail.smtpUrl) refuse("SMTP_URL", "is required: the development mailbox keeps one-time codes instead of mailing them");
    if (config.seedDemo) refuse("SLOTGATE_SEED_DEMO", "must be off: the demo developer and client are for development");
    if (!config.rateLimit.enabled) refuse("RATE_LIMIT", "must be on");
    if (!config.publicUrl) refuse("PUBLIC_URL", "is required: the https URL clients use (the token issuer)");
    else {
      const url = new URL(config.publicUrl);
      if (url.protocol !== "https:" && !isLoopbackHost(url.hostname)) refuse("PUBLIC_URL", "must use https (http only on a loopback host)");
    }
    if (chain.mode === "remote") {
      if (!chain.tls.client) refuse("CHAIN_SERVICE_TLS_CA", "is required: the link to the chain service must be TLS");
      if (!chain.serviceToken && !chain.tls.client?.cert)
        refuse("CHAIN_SERVICE_TOKEN", "is required (or CHAIN_SERVICE_TLS_CLIENT_CERT): the link to the chain service must be authenticated");
    }
  } else {
    if (!chain.tls.server) refuse("CHAIN_SERVICE_TLS_CERT", "is required (with CHAIN_SERVICE_TLS_KEY): the chain service must serve TLS");
    if (!chain.serviceToken && !chain.tls.server?.clientCa)
      refuse("CHAIN_SERVICE_TOKEN", "is required (or CHAIN_SERVICE_TLS_CLIENT_CA): the chain service must authenticate its callers");
  }
  if (chain.mode === "anvil")
    refuse("CHAIN", "must not be the development chain (anvil, well-known keys): set RPC_URL and the deployed addresses, or CHAIN=off");
  if (chain.service) {
    if (!chain.service.keyEncryptionKey) refuse(CHAIN_ENV.keyEncryptionKey, "is required: a generated key-encryption key is for development");
    if (!chain.service.recoveryKey) refuse(CHAIN_ENV.recoveryKey, "is required: a generated recovery key is for development");
    const rpc = chain.service.chain;
    if (rpc) {
      const keys = {
        [CHAIN_ENV.operatorKey]: rpc.operatorKey,
        [CHAIN_ENV.spendRecorderKey]: rpc.spendRecorderKey,
        [CHAIN_ENV.paymasterSignerKey]: rpc.paymasterSignerKey,
        [CHAIN_ENV.bundlerKey]: rpc.bundlerKey,
      };
      for (const [variable, key] of Object.entries(keys)) {
        if (key && isWellKnownKey(key)) refuse(variable, "is a well-known development key (Anvil/Hardhat): anyone can sign with it");
      }
    }
  }
  return problems;
}

/**
 * In production mode (`config.environment`), throws {@link ProductionRefusal} listing every
 * development default of {@link productionProblems}; in development, returns.
 *
 * @example
 * ```ts
 * refuseDevelopmentDefaults(loadConfig(process.env), "server");
 * ```
 */
export function refuseDevelopmentDefaults(config: ServerConfig, role: ProcessRole): void {
  if (config.environment !== "production") return;
  const problems = productionProblems(config, role);
  if (problems.length > 0) throw new ProductionRefusal(problems);
}
