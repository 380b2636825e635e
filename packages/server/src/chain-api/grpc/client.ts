import grpc from "@grpc/grpc-js";
import {
  type ChainService,
  type ChainServiceAddresses,
  ChainServiceError,
  type ChainServiceErrorCode,
  USER_CALL_METHODS,
  currentRequestId,
} from "@slotgate/chain-service";
import { type CallerAssertions, verifiedUser } from "../chain/caller-assertions.js";
import type { ChainHandle } from "../chain/start-chain.js";
import type { ChainLinkTls } from "../../platform/config/chain-env.js";
import { CHAIN_GRPC_METHODS, type ChainGrpcMethod, chainServiceDefinition, METADATA } from "./definition.js";

const USER_CALLS = new Set<string>(USER_CALL_METHODS);

const ChainClient = grpc.makeGenericClientConstructor(chainServiceDefinition, "ChainService");
type UnaryMethod = (
  request: unknown,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, value?: unknown) => void,
) => void;

/**
 * Connects to a `slotgate-server chain-service` process over gRPC and returns a {@link ChainHandle}
 * whose service forwards every call. Failures come back as the chain service's own
 * `ChainServiceError` with its stable code and details (the HTTP layer maps them like local ones); an
 * unreachable process (or one whose certificate does not verify) is `chain_unavailable`. With `tls` the
 * channel is TLS, verified against `tls.ca` (null: the system's roots), with a client certificate for
 * mutual TLS. With `assert`, each call made for a user (`USER_CALL_METHODS`) carries a caller
 * assertion for the user the current chain route verified ({@link runAsVerifiedUser}).
 *
 * @example
 * ```ts
 * const chain = await connectRemoteChain("chain.internal:50051", { token, tls: { ca, cert: null, key: null } });
 * await chain.service.registerPin({ user_uuid: 7, pin_hash, pin_salt });
 * ```
 */
export async function connectRemoteChain(
  address: string,
  options: { token?: string | null; tls?: ChainLinkTls["client"]; assert?: CallerAssertions; timeoutMs?: number } = {},
): Promise<ChainHandle> {
  const tls = options.tls ?? null;
  // The name TLS sends and checks when the address is an IP (TLS server names are host names).
  const channelOptions = tls?.serverName ? { "grpc.ssl_target_name_override": tls.serverName, "grpc.default_authority": tls.serverName } : {};
  const client = new ChainClient(address, tls ? grpc.credentials.createSsl(tls.ca, tls.key, tls.cert) : grpc.credentials.createInsecure(), channelOptions);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const call = (method: ChainGrpcMethod, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const metadata = new grpc.Metadata();
      if (options.token) metadata.set(METADATA.token, `Bearer ${options.token}`);
      const requestId = currentRequestId();
      if (requestId) metadata.set(METADATA.requestId, requestId);
      // A call made for a user carries the front service's assertion for the user its route verified.
      const user = verifiedUser();
      if (USER_CALLS.has(method) && user !== undefined && options.assert) metadata.set(METADATA.assertion, options.assert(user, method));
      const fn = (client as unknown as Record<string, UnaryMethod>)[method]!;
      fn.call(client, args, metadata, { deadline: Date.now() + timeoutMs }, (error, value) => {
        if (!error) return resolve((value as { value: unknown }).value);
        const wire = error.metadata?.get(METADATA.error)[0];
        if (typeof wire === "string") {
          const parsed = JSON.parse(wire) as { code: ChainServiceErrorCode; message: string; details?: Record<string, string | number> };
          return reject(new ChainServiceError(parsed.code, parsed.message, parsed.details ? { details: parsed.details } : {}));
        }
        reject(new ChainServiceError("chain_unavailable", "The chain service process did not answer; retry later.", { cause: error }));
      });
    });
  let addresses: ChainServiceAddresses;
  let devChain: boolean;
  try {
    const { devChain: dev, ...described } = (await call("describe", [])) as Record<string, string> & { devChain?: boolean };
    addresses = { ...(described as unknown as ChainServiceAddresses), chainId: BigInt(described["chainId"] ?? 0) };
    devChain = dev === true;
  } catch (error) {
    client.close();
    throw error;
  }
  const service = { addresses } as Record<string, unknown>;
  for (const method of CHAIN_GRPC_METHODS) {
    // JSON has no undefined: trailing optional arguments left out are not sent as null.
    if (method !== "describe") service[method] = (...args: unknown[]) => call(method, withoutTrailingUndefined(args));
  }
  service["close"] = async () => undefined;
  return {
    mode: "remote",
    service: service as unknown as ChainService,
    devOperator: devChain,
    rpcUrl: null,
    async close() {
      client.close();
    },
  };
}

function withoutTrailingUndefined(args: unknown[]): unknown[] {
  let end = args.length;
  while (end > 0 && args[end - 1] === undefined) end -= 1;
  return args.slice(0, end);
}
