import { CHAIN_ENV, ChainServiceError, chainServiceConfigFromEnv, type SqlDatabase } from "@slotgate/chain-service";

/** How the server reaches the chain service. */
export type ChainMode = "in-process" | "rpc" | "remote" | "off";

/** Validated chain settings (`CHAIN`, `CHAIN_SERVICE_URL` and the chain service's own variables). */
export interface ChainSettings {
  /**
   * `CHAIN`: `in-process` (Hardhat network booted by the server, development default), `rpc`
   * (`RPC_URL` and the deployed system), `off` (OAuth-only server: chain endpoints answer 503).
   * `CHAIN_SERVICE_URL` selects `remote`: the chain service runs as its own process behind gRPC.
   * @default "rpc" when RPC_URL is set, else "in-process"
   */
  mode: ChainMode;
  /** `CHAIN_SERVICE_URL`: `host:port` of a `slotgate-server chain-service` process. @default null */
  serviceUrl: string | null;
  /**
   * `CHAIN_SERVICE_TOKEN`: shared secret (>= 32 chars) the server sends to the gRPC chain service and
   * the chain-service process requires. @default null (no token; keep the port on a private network)
   */
  serviceToken: string | null;
  /** The chain service's variables (`CHAIN_KEK`, `RPC_URL`, addresses, keys, `BUNDLER_URL`, PIN policy), as given. */
  env: Readonly<Record<string, string | undefined>>;
}

type Env = Record<string, string | undefined>;

/** Thrown for a bad chain variable; the server's config loader turns it into its `ConfigError`. */
export class ChainConfigProblem extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`${variable} ${problem}`);
  }
}

const NO_DB: SqlDatabase = {
  query: () => Promise.reject(new Error("validation only")),
  transaction: () => Promise.reject(new Error("validation only")),
};

/**
 * Reads and validates the chain settings once at start-up. Problems name the variable, never its value.
 *
 * @example
 * ```ts
 * chainSettingsFromEnv({ CHAIN: "off" }).mode; // "off"
 * ```
 */
export function chainSettingsFromEnv(env: Env): ChainSettings {
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const picked: Record<string, string | undefined> = {};
  for (const name of Object.values(CHAIN_ENV)) picked[name] = env[name];
  const explicit = read("CHAIN")?.toLowerCase();
  const serviceUrl = read("CHAIN_SERVICE_URL") ?? null;
  const serviceToken = read("CHAIN_SERVICE_TOKEN") ?? null;
  if (serviceToken !== null && serviceToken.length < 32) throw new ChainConfigProblem("CHAIN_SERVICE_TOKEN", "must be at least 32 characters");
  const rpcUrl = read(CHAIN_ENV.rpcUrl);
  if (explicit !== undefined && !["in-process", "rpc", "off"].includes(explicit)) {
    throw new ChainConfigProblem("CHAIN", "must be in-process, rpc or off");
  }
  if (serviceUrl !== null) {
    if (explicit === "off") throw new ChainConfigProblem("CHAIN_SERVICE_URL", "cannot be combined with CHAIN=off");
    if (!/^[A-Za-z0-9.\-[\]:]+:[0-9]{1,5}$/.test(serviceUrl)) throw new ChainConfigProblem("CHAIN_SERVICE_URL", "must be host:port of a slotgate-server chain-service process");
    return { mode: "remote", serviceUrl, serviceToken, env: picked };
  }
  if (explicit === "off") return { mode: "off", serviceUrl: null, serviceToken, env: picked };
  if (explicit === "rpc" && rpcUrl === undefined) throw new ChainConfigProblem("RPC_URL", "is required with CHAIN=rpc");
  if (explicit === "in-process" && rpcUrl !== undefined) throw new ChainConfigProblem("CHAIN", "is in-process but RPC_URL is set; remove one of them");
  if (explicit === undefined && rpcUrl === undefined && read("DATABASE_URL") !== undefined) {
    throw new ChainConfigProblem(
      "CHAIN",
      "must be chosen when DATABASE_URL is set: set RPC_URL and the deployed addresses (production), CHAIN=in-process (development; the chain records in this database are reset at every start) or CHAIN=off",
    );
  }
  try {
    chainServiceConfigFromEnv(picked, { db: NO_DB, warn: () => undefined });
  } catch (error) {
    if (error instanceof ChainServiceError) {
      const [variable = "CHAIN", ...rest] = error.message.split(" ");
      throw new ChainConfigProblem(variable, rest.join(" "));
    }
    throw error;
  }
  return { mode: rpcUrl === undefined ? "in-process" : "rpc", serviceUrl: null, serviceToken, env: picked };
}
