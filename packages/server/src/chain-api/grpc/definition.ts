import type { ServiceDefinition } from "@grpc/grpc-js";
import { CHAIN_SERVICE_METHODS } from "@slotgate/chain-service";

/**
 * The calls served over gRPC (spec 4.9: the front service forwards to the chain service over gRPC):
 * one unary method per `ChainService` method (`CHAIN_SERVICE_METHODS`, the chain service's one list),
 * plus `describe` (the deployed addresses and whether the chain is a development chain).
 */
export const CHAIN_GRPC_METHODS = [...CHAIN_SERVICE_METHODS, "describe"] as const;

/** A method name of {@link CHAIN_GRPC_METHODS}. */
export type ChainGrpcMethod = (typeof CHAIN_GRPC_METHODS)[number];

/** The gRPC service name. */
const CHAIN_GRPC_SERVICE = "slotgate.chain.v1.ChainService";

/** The metadata keys of a call on the chain link. */
export const METADATA = {
  /** The wire error (`{ code, message, details }`) of a failed call. */
  error: "slotgate-error",
  /** The calling request's id (the HTTP `X-Request-Id`): the chain service's log lines and writes carry it. */
  requestId: "x-request-id",
  /** The caller assertion of a call made for a user (docs/decisions/chain-link.md). */
  assertion: "slotgate-caller-assertion",
  /** The shared secret (`CHAIN_SERVICE_TOKEN`). */
  token: "authorization",
} as const;

const encode = (value: unknown): Buffer =>
  Buffer.from(
    JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
    "utf8",
  );
const decode = (bytes: Buffer): unknown => (bytes.length === 0 ? null : JSON.parse(bytes.toString("utf8")));

/**
 * The service definition: messages are UTF-8 JSON (request: the method's argument array; answer:
 * `{ value: result }`), so the wire types stay the `@slotgate/protocol` ones without a second schema language. The
 * chain service validates the arguments of every call itself.
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
