import grpc from "@grpc/grpc-js";
import type { ChainService, ChainServiceAddresses } from "@slotgate/chain-service";
import type { ChainHandle } from "../chain/start-chain.js";
import { CHAIN_GRPC_METHODS, type ChainGrpcMethod, chainServiceDefinition, ERROR_METADATA, TOKEN_METADATA } from "./definition.js";

/**
 * A chain-service failure reported by the remote process: same stable `code` as `ChainServiceError`.
 *
 * @example
 * ```ts
 * try { await chain.service.verifyPin(credentials); } catch (e) { if (e instanceof RemoteChainError) console.log(e.code); }
 * ```
 */
export class RemoteChainError extends Error {
  override name = "RemoteChainError";
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, string | number>,
  ) {
    super(message);
  }
}

const ChainClient = grpc.makeGenericClientConstructor(chainServiceDefinition, "ChainService");
type UnaryMethod = (request: unknown, metadata: grpc.Metadata, options: grpc.CallOptions, callback: (error: grpc.ServiceError | null, value?: unknown) => void) => void;

/**
 * Connects to a `slotgate-server chain-service` process over gRPC and returns a {@link ChainHandle}
 * whose service forwards every call. Failures come back as {@link RemoteChainError} with the chain
 * service's stable code (the HTTP layer maps them like local ones); an unreachable process is
 * `chain_unavailable`.
 *
 * @example
 * ```ts
 * const chain = await connectRemoteChain("127.0.0.1:50051");
 * await chain.service.registerPin({ user_uuid: 7, pin_hash, pin_salt });
 * ```
 */
export async function connectRemoteChain(address: string, options: { token?: string | null; timeoutMs?: number } = {}): Promise<ChainHandle> {
  const client = new ChainClient(address, grpc.credentials.createInsecure());
  const timeoutMs = options.timeoutMs ?? 120_000;
  const call = (method: ChainGrpcMethod, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const metadata = new grpc.Metadata();
      if (options.token) metadata.set(TOKEN_METADATA, `Bearer ${options.token}`);
      const fn = (client as unknown as Record<string, UnaryMethod>)[method]!;
      fn.call(client, args, metadata, { deadline: Date.now() + timeoutMs }, (error, value) => {
        if (!error) return resolve(value);
        const wire = error.metadata?.get(ERROR_METADATA)[0];
        if (typeof wire === "string") {
          const parsed = JSON.parse(wire) as { code: string; message: string; details?: Record<string, string | number> };
          return reject(new RemoteChainError(parsed.code, parsed.message, parsed.details));
        }
        reject(new RemoteChainError("chain_unavailable", "The chain service process did not answer; retry later."));
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
    if (method === "describe" || method === "ready") continue;
    service[method] = (...args: unknown[]) => call(method, args);
  }
  service["close"] = async () => undefined;
  return {
    mode: "remote",
    service: service as unknown as ChainService,
    devOperator: devChain,
    async ready() {
      await call("ready", []);
    },
    async close() {
      client.close();
    },
  };
}
