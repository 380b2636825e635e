import { timingSafeEqual } from "node:crypto";
import grpc from "@grpc/grpc-js";
import { type ChainService, ChainServiceError, runRemoteCall } from "@slotgate/chain-service";
import { REQUEST_ID_PATTERN } from "../../platform/http/request-id.js";
import type { Logger } from "../../platform/config/logger.js";
import type { ChainLinkTls } from "../../platform/config/chain-env.js";
import { ConfigError, isLoopbackHost } from "../../platform/config/env.js";
import { CHAIN_GRPC_METHODS, type ChainGrpcMethod, chainServiceDefinition, METADATA } from "./definition.js";

/** A running gRPC chain service. */
export interface ChainGrpcServer {
  /** `host:port` it listens on. */
  address: string;
  /** Stops accepting calls and waits for running ones. */
  close(): Promise<void>;
}

const STATUS: Record<number, grpc.status> = {
  400: grpc.status.INVALID_ARGUMENT,
  401: grpc.status.UNAUTHENTICATED,
  403: grpc.status.PERMISSION_DENIED,
  404: grpc.status.NOT_FOUND,
  409: grpc.status.FAILED_PRECONDITION,
  423: grpc.status.RESOURCE_EXHAUSTED,
  503: grpc.status.UNAVAILABLE,
};

function failure(error: unknown, log: Logger): grpc.ServiceError {
  const known = error instanceof ChainServiceError ? error : null;
  if (!known) log.error("chain-service call failed", { error: error instanceof Error ? `${error.name}: ${error.message}` : "unknown" });
  const wire = known ? { code: known.code, message: known.message, details: known.details } : { code: "internal_error", message: "Internal error." };
  const metadata = new grpc.Metadata();
  metadata.set(METADATA.error, JSON.stringify(wire));
  return Object.assign(new Error(wire.message), {
    code: known ? (STATUS[known.status] ?? grpc.status.UNKNOWN) : grpc.status.INTERNAL,
    details: wire.message,
    metadata,
  });
}

function authorized(call: grpc.ServerUnaryCall<unknown, unknown>, token: string | null): boolean {
  if (token === null) return true;
  const presented = Buffer.from(String(call.metadata.get(METADATA.token)[0] ?? ""));
  const expected = Buffer.from(`Bearer ${token}`);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** How {@link serveChainService} listens and whom it lets in. */
export interface ChainGrpcOptions {
  host: string;
  port: number;
  log: Logger;
  /** `CHAIN_SERVICE_TOKEN`: every call must send `authorization: Bearer <token>`. @default null */
  token?: string | null;
  /** `CHAIN_SERVICE_TLS_*`: the certificate and key, and the CA of callers' certificates (mutual TLS). @default null (plain text) */
  tls?: ChainLinkTls["server"];
  /** Whether the chain is a development chain (told to callers by `describe`). @default false */
  devChain?: boolean;
}

/**
 * The credential rule of the chain-service link: off a loopback address the chain service requires a
 * credential (the shared token, or mutual TLS); on loopback it may run without one (development), and
 * says so. Throws {@link ConfigError} naming the variable to set; returns the warning to log, if any.
 *
 * @example
 * ```ts
 * linkCredentialWarning({ host: "0.0.0.0", token: null, tls: null }); // throws: CHAIN_SERVICE_TOKEN is required …
 * ```
 */
export function linkCredentialWarning(options: Pick<ChainGrpcOptions, "host" | "token" | "tls">): string | null {
  if (options.token || options.tls?.clientCa) return null;
  if (!isLoopbackHost(options.host)) {
    throw new ConfigError(
      "CHAIN_SERVICE_TOKEN",
      "is required when the chain service listens on a non-loopback address (CHAIN_SERVICE_HOST); set it, or CHAIN_SERVICE_TLS_CLIENT_CA for mutual TLS",
    );
  }
  return "DEVELOPMENT DEFAULT: CHAIN_SERVICE_TOKEN is not set: the chain service accepts any caller on this loopback address; set it (and CHAIN_SERVICE_TLS_*) before binding elsewhere";
}

/** The listening credentials: TLS (mutual when a client CA is given) or plain text. */
function serverCredentials(tls: ChainLinkTls["server"] | undefined): grpc.ServerCredentials {
  if (!tls) return grpc.ServerCredentials.createInsecure();
  return grpc.ServerCredentials.createSsl(tls.clientCa, [{ cert_chain: tls.cert, private_key: tls.key }], tls.clientCa !== null);
}

/**
 * Serves a chain service over gRPC (`slotgate-server chain-service`): every `ChainService` method as
 * a unary call with JSON messages. Failures carry the chain service's stable error code in the
 * `slotgate-error` trailer. Each call runs as a remote call (`runRemoteCall`): a call made for a user
 * needs the caller assertion of the `slotgate-caller-assertion` metadata. With `token`, calls must send
 * `authorization: Bearer <token>`; with `tls`, the channel is TLS (mutual TLS with `tls.clientCa`). Off
 * a loopback address it refuses to start without a credential ({@link linkCredentialWarning}).
 *
 * @example
 * ```ts
 * const grpcServer = await serveChainService(chain, { host: "127.0.0.1", port: 50051, log, token, tls });
 * ```
 */
export async function serveChainService(service: ChainService, options: ChainGrpcOptions): Promise<ChainGrpcServer> {
  const warning = linkCredentialWarning(options);
  if (warning) options.log.warn(warning);
  const server = new grpc.Server();
  const token = options.token ?? null;
  const handlers: grpc.UntypedServiceImplementation = {};
  for (const method of CHAIN_GRPC_METHODS) {
    handlers[method] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      if (!authorized(call, token)) {
        callback(failure(new ChainServiceError("service_unavailable", "The chain service refused the caller's token."), options.log));
        return;
      }
      const presented = call.metadata.get(METADATA.requestId)[0];
      const requestId = typeof presented === "string" && REQUEST_ID_PATTERN.test(presented) ? presented : undefined;
      const assertion = call.metadata.get(METADATA.assertion)[0];
      // Every call runs as a remote one: the chain service then requires the caller assertion of a user call.
      runRemoteCall({ requestId, assertion: typeof assertion === "string" ? assertion : null }, () =>
        invoke(service, method, call.request, options.devChain === true),
      ).then(
        // An envelope: grpc-js sends no message for a null answer (e.g. `ready()`, `walletAddressFor` of an unknown user).
        (result) => callback(null, { value: result ?? null }),
        (error: unknown) => callback(failure(error, options.log)),
      );
    };
  }
  server.addService(chainServiceDefinition, handlers);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, serverCredentials(options.tls), (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  return {
    address: `${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
      }),
  };
}

async function invoke(service: ChainService, method: ChainGrpcMethod, request: unknown, devChain: boolean): Promise<unknown> {
  if (method === "describe") return { ...service.addresses, devChain };
  // The chain service validates the arguments itself (its one boundary).
  const args = Array.isArray(request) ? request : [request];
  const fn = service[method] as (...a: unknown[]) => Promise<unknown>;
  return fn.apply(service, args);
}
