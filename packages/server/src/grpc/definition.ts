import type { ServiceDefinition } from "@grpc/grpc-js";

/**
 * The chain-service calls served over gRPC (spec: the front service forwards to the chain service
 * over gRPC). One unary method per `ChainService` method, plus `Describe` (addresses) and `Ready`.
 */
export const CHAIN_GRPC_METHODS = [
  "registerPin",
  "verifyPin",
  "resetPin",
  "recover",
  "walletAddressFor",
  "contentAddressFor",
  "provisionWallet",
  "transferToken",
  "exchangeSlotOwner",
  "registerSlot",
  "slotOwner",
  "initPermissionProvider",
  "testEncryption",
  "setSpendReplayProtection",
  "buyContentToken",
  "increaseUsed",
  "balanceOf",
  "release",
  "enableRelease",
  "fundWallet",
  "devFundSlot",
  "describe",
  "ready",
] as const;

/** A method name of {@link CHAIN_GRPC_METHODS}. */
export type ChainGrpcMethod = (typeof CHAIN_GRPC_METHODS)[number];

/** The gRPC service name. */
export const CHAIN_GRPC_SERVICE = "slotgate.chain.v1.ChainService";

/** Metadata key carrying the wire error (`{ code, message, details }`) of a failed call. */
export const ERROR_METADATA = "slotgate-error";

/** Metadata key of the shared secret (`CHAIN_SERVICE_TOKEN`). */
export const TOKEN_METADATA = "authorization";

const encode = (value: unknown): Buffer => Buffer.from(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)), "utf8");
const decode = (bytes: Buffer): unknown => (bytes.length === 0 ? null : JSON.parse(bytes.toString("utf8")));

/**
 * The service definition: messages are UTF-8 JSON (request: the method's argument array; answer: its
 * result), so the wire types stay the `@slotgate/protocol` ones without a second schema language.
 */
export const chainServiceDefinition: ServiceDefinition = Object.fromEntries(
  CHAIN_GRPC_METHODS.map((name) => [
    name,
    {
      path: `/${CHAIN_GRPC_SERVICE}/${name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: encode,
      requestDeserialize: decode,
      responseSerialize: encode,
      responseDeserialize: decode,
      originalName: name,
    },
  ]),
);
