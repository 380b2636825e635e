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
export const CHAIN_GRPC_SERVICE = "slotgate.chain.v1.ChainService";

/** Metadata key carrying the wire error (`{ code, message, details }`) of a failed call. */
export const ERROR_METADATA = "slotgate-error";

/** Metadata key of the calling request's id (the HTTP `X-Request-Id`): the chain service's log lines and writes carry it. */
export const REQUEST_ID_METADATA = "x-request-id";

/** Metadata key of the caller assertion of a call made for a user (docs/decisions/chain-link.md). */
export const ASSERTION_METADATA = "slotgate-caller-assertion";

/** Metadata key of the shared secret (`CHAIN_SERVICE_TOKEN`). */
export const TOKEN_METADATA = "authorization";

const encode = (value: unknown): Buffer => Buffer.from(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)), "utf8");
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
