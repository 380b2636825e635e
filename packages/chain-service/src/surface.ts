import { getAddress } from "ethers";
import { z } from "zod";
import {
  cuid,
  exchangeTokenOwnerSchema,
  increaseUsedContentTokenSchema,
  initPermissionProviderSchema,
  metaIdx,
  pinRecoverSchema,
  pinRegisterSchema,
  pinResetSchema,
  pinVerifySchema,
  primitives,
  releaseUsedBalanceSchema,
  testEncryptionSchema,
  tokenTransferSchema,
  userBuyContentTokenSchema,
} from "@slotgate/protocol/schemas";
import type { ServiceContext } from "./service-context.js";
import { balanceOf, enableRelease, release } from "./content-tokens/release.js";
import { initPermissionProvider, providerStatus, rotateProviderKey, setSpendReplayProtection, testEncryption } from "./content-tokens/providers.js";
import { buyContentToken } from "./content-tokens/purchase.js";
import { increaseUsed } from "./content-tokens/spend.js";
import { revertError, specificError } from "./chain/revert-error.js";
import { ChainServiceError } from "./errors.js";
import { devFundSlot, fundWallet } from "./operations/funding.js";
import { exchangeSlotOwner, registerSlot } from "./operations/slot-exchange.js";
import { runWalletOperation } from "./operations/wallet-operation.js";
import { recover } from "./pin/recover.js";
import { activateSlot, activeSlot, activeSlotRecord, listSlots, openSlot, slotInfo } from "./slots/slots.js";
import { contentSlot } from "./slots/content-slot.js";
import { findCuidOwner } from "./storage/providers.js";
import { registerPin } from "./pin/register.js";
import { resetPin } from "./pin/reset.js";
import type { ChainService, WriteOptions } from "./service.js";
import type { TokenTransferResponse } from "@slotgate/protocol";
import type { WalletOperationResponse } from "./operations/wallet-operation.js";
import { type PendingWrite, type WriteIdentity, requestHash } from "./writes/engine.js";
import { findWallet } from "./storage/wallets.js";
import { countWrites } from "./storage/writes.js";
import { provisionWallet } from "./wallets/provision.js";
import { pendingDerivations } from "./keys/share-pin.js";
import { currentRemoteCall, currentRequestId } from "./request-context.js";
import { spendCallerAssertion } from "./evidence/caller-assertion.js";
import type { ChainServiceConfig, ChainServiceMetrics } from "./config.js";

const clientId = primitives.text(128);
const weiAmount = primitives.positiveUintString;

/** The methods that write to the chain: their last argument is {@link WriteOptions}. */
type WriteMethod =
  | "verifyPin"
  | "transferToken"
  | "exchangeSlotOwner"
  | "registerSlot"
  | "initPermissionProvider"
  | "buyContentToken"
  | "increaseUsed"
  | "release"
  | "enableRelease"
  | "fundWallet";

type WithoutLast<T extends unknown[]> = T extends [...infer Head, unknown?] ? Head : T;
/** The request arguments of a method (a write method's without its options). */
type RequestArgs<K extends keyof ChainService> = ChainService[K] extends (...args: infer A) => unknown ? (K extends WriteMethod ? WithoutLast<A> : A) : never;

/** Every method of the surface: the schema of its argument list, what runs with the parsed arguments, and (write methods) whose write it is. */
type Methods = {
  [K in Exclude<keyof ChainService, "addresses" | "close">]: (K extends WriteMethod
    ? {
        args: z.ZodTuple;
        scope: (...args: RequestArgs<K>) => string;
        run: (ctx: ServiceContext, ...args: [...RequestArgs<K>, WriteIdentity]) => ReturnType<ChainService[K]>;
      }
    : { args: z.ZodTuple; scope?: undefined; run: (ctx: ServiceContext, ...args: RequestArgs<K>) => ReturnType<ChainService[K]> }) & {
    /**
     * A call made for one user (PIN-gated, or re-keying a wallet): the user it acts for. Over a
     * transport such a call needs the front service's caller assertion naming that user.
     */
    actsFor?: (...args: RequestArgs<K>) => number;
  };
};

/** Marks a method as made for the user `actsFor` names (see {@link Methods}). */
const forUser = <M extends object, A extends unknown[]>(entry: M & { args: z.ZodTuple }, actsFor: (...args: A) => number) => ({ ...entry, actsFor });

const method = <S extends z.ZodTuple, Result>(args: S, run: (ctx: ServiceContext, ...args: z.output<S>) => Promise<Result>) => ({
  args,
  run,
});

/**
 * A write method: `scope` names whose write it is (idempotency keys are unique per scope: a client's,
 * a user's, the platform's); `run` receives the write identity after the parsed arguments.
 */
const write = <S extends z.ZodTuple, Result>(
  args: S,
  scope: (...args: z.output<S>) => string,
  run: (ctx: ServiceContext, ...args: [...z.output<S>, WriteIdentity]) => Promise<Result>,
) => ({ args, scope, run });

const client = (id: string) => `client:${id}`;
const user = (id: number | string) => `user:${id}`;
const platform = () => "platform";

/** The options of a write method, validated like its arguments. */
const writeOptionsSchema = z.strictObject({ idempotencyKey: primitives.idempotencyKey.optional(), requestId: primitives.text(200).optional() }).optional();

/** A write method's options, parsed: `invalid_request` naming the option. */
function writeOptionsOf(value: unknown): WriteOptions | undefined {
  const options = writeOptionsSchema.safeParse(value);
  if (options.success) return options.data;
  const issue = options.error.issues[0];
  throw new ChainServiceError("invalid_request", `options.${issue?.path.join(".") || "options"}: ${issue?.message ?? "invalid"}`);
}

/**
 * @internal The chain service's public boundary, written once: for every {@link ChainService} method
 * the schema of its arguments (the protocol's schemas and primitives) and its implementation. The
 * service object, in process or behind gRPC, validates each call here before anything runs, so the
 * feature modules receive parsed input and never re-check it.
 */
export const SURFACE = {
  registerPin: forUser(method(z.tuple([pinRegisterSchema]), registerPin), (request: { user_uuid: number }) => request.user_uuid),
  verifyPin: forUser(
    write(
      z.tuple([pinVerifySchema]),
      (request) => user(request.user_uuid),
      (ctx, { operation, ...credentials }, identity) =>
        runWalletOperation(ctx, credentials, operation ?? { kind: "verify_only" }, identity, { resealBackup: true }) as Promise<
          WalletOperationResponse | PendingWrite
        >,
    ),
    (request: { user_uuid: number }) => request.user_uuid,
  ),
  resetPin: forUser(method(z.tuple([pinResetSchema]), resetPin), (request: { user_uuid: number }) => request.user_uuid),
  // Recovery carries its own assertion (for `recover`, minted after the mailbox proof), checked in process too.
  recover: method(z.tuple([pinRecoverSchema.extend({ assertion: z.string().min(1).max(4096) })]), recover),
  walletAddressFor: method(z.tuple([primitives.userUuid]), async (ctx, userUuid) => (await findWallet(ctx.db, userUuid))?.address ?? null),
  contentAddressFor: method(z.tuple([primitives.userUuid]), async (ctx, userUuid) => (await findWallet(ctx.db, userUuid))?.contentAddress ?? null),
  provisionWallet: method(z.tuple([primitives.userUuid]), async (ctx, userUuid) => {
    const wallet = await provisionWallet(ctx, userUuid);
    return { address: wallet.address, content_address: wallet.contentAddress };
  }),
  transferToken: forUser(
    write(
      z.tuple([primitives.userUuid, tokenTransferSchema.extend({ pin_salt: primitives.pinSalt.optional() })]),
      (userUuid) => user(userUuid),
      (ctx, userUuid, request, identity) => {
        const { pin_hash, pin_salt, key_share_user, ...transfer } = request;
        return runWalletOperation(
          ctx,
          { user_uuid: userUuid, pin_hash, key_share_user, ...(pin_salt === undefined ? {} : { pin_salt }) },
          { kind: "erc20_transfer", ...transfer },
          identity,
          { shape: "transfer" },
        ) as Promise<TokenTransferResponse | PendingWrite>;
      },
    ),
    (userUuid: number) => userUuid,
  ),
  exchangeSlotOwner: forUser(
    write(z.tuple([exchangeTokenOwnerSchema]), (request) => user(request.from_uuid), exchangeSlotOwner),
    (request: { from_uuid: string }) => Number(request.from_uuid),
  ),
  registerSlot: write(z.tuple([z.strictObject({ cuid, meta_idx: metaIdx, user_uuid: primitives.userUuid })]), platform, (ctx, args) => registerSlot(ctx, args)),
  slotOwner: method(z.tuple([cuid, metaIdx]), async (ctx, slotCuid, index) => getAddress(await ctx.contracts.exchange.slot_owner(slotCuid, BigInt(index)))),
  // Reads (public chain facts, and the active slot the code exchange needs before any user call) take no assertion;
  // opening and activating change what the user plays with: made for the user.
  listSlots: method(z.tuple([primitives.userUuid, cuid]), listSlots),
  slotInfo: method(z.tuple([cuid, metaIdx]), slotInfo),
  openSlot: forUser(method(z.tuple([primitives.userUuid, cuid]), openSlot), (userUuid: number) => userUuid),
  activeSlot: method(z.tuple([primitives.userUuid, cuid, z.strictObject({ create: z.boolean().optional() }).optional()]), activeSlot),
  activateSlot: forUser(method(z.tuple([primitives.userUuid, cuid, metaIdx]), activateSlot), (userUuid: number) => userUuid),
  contentSlot: method(z.tuple([primitives.userUuid, cuid.optional()]), contentSlot),
  cuidClient: method(z.tuple([cuid]), (ctx, slotCuid) => findCuidOwner(ctx.db, slotCuid)),
  purchaseConsent: method(z.tuple([primitives.userUuid, cuid]), async (ctx, userUuid, slotCuid) => {
    const active = await activeSlotRecord(ctx, userUuid, slotCuid, false);
    return active ? String(await ctx.contracts.exchange.purchase_allowance(active.wallet, slotCuid)) : "0";
  }),
  initPermissionProvider: write(z.tuple([initPermissionProviderSchema]), (request) => client(request.client_id), initPermissionProvider),
  testEncryption: method(z.tuple([testEncryptionSchema]), testEncryption),
  setSpendReplayProtection: method(z.tuple([clientId, z.boolean()]), setSpendReplayProtection),
  providerStatus: method(z.tuple([clientId]), providerStatus),
  rotateProviderKey: method(
    z.tuple([
      clientId,
      z
        .number()
        .int()
        .min(0)
        .max(7 * 86_400),
    ]),
    rotateProviderKey,
  ),
  buyContentToken: write(z.tuple([userBuyContentTokenSchema]), (request) => client(request.client_id), buyContentToken),
  increaseUsed: write(z.tuple([clientId, increaseUsedContentTokenSchema]), (id) => client(id), increaseUsed),
  balanceOf: method(z.tuple([primitives.address, cuid.optional()]), (ctx, slot, slotCuid) => balanceOf(ctx, slot, slotCuid)),
  release: write(z.tuple([releaseUsedBalanceSchema]), (request) => client(request.client_id), release),
  enableRelease: write(z.tuple([cuid, z.boolean().optional()]), platform, (ctx, releaseCuid, enabled) => enableRelease(ctx, releaseCuid, enabled ?? true)),
  fundWallet: write(
    z.tuple([z.strictObject({ user_uuid: primitives.userUuid, xotn: weiAmount, wallet: z.enum(["slot", "user"]).optional() })]),
    platform,
    (ctx, args) => fundWallet(ctx, args),
  ),
  lookupWrite: method(
    z.tuple([z.union([z.strictObject({ client_id: clientId }), z.strictObject({ user_uuid: primitives.userUuid })]), primitives.writeId]),
    async (ctx, owner, writeId) => {
      const answer = await ctx.writes.lookup("client_id" in owner ? client(owner.client_id) : user(owner.user_uuid), writeId);
      if (answer === null) throw new ChainServiceError("write_not_found");
      return answer;
    },
  ),
  lookupWriteByKey: method(z.tuple([z.strictObject({ user_uuid: primitives.userUuid }), primitives.idempotencyKey]), (ctx, owner, key) =>
    ctx.writes.lookupByKey(user(owner.user_uuid), key),
  ),
  devFundSlot: method(z.tuple([z.strictObject({ user_uuid: primitives.userUuid, xotn: weiAmount, cuid, client_id: clientId })]), devFundSlot),
  metrics: method(z.tuple([]), metricsOf),
  ready: method(z.tuple([]), async (ctx) => {
    try {
      await ctx.provider.getBlockNumber();
    } catch (cause) {
      throw new ChainServiceError("chain_unavailable", undefined, { cause });
    }
  }),
} satisfies Methods;

/** The names of the {@link ChainService} methods, in one place (the gRPC layer serves exactly these). */
export const CHAIN_SERVICE_METHODS = Object.keys(SURFACE) as (keyof typeof SURFACE)[];

/**
 * The methods made for one user (PIN-gated or re-keying): called over a transport, each needs a caller
 * assertion for the method naming that user (`recover` always carries its own, in its input).
 */
export const USER_CALL_METHODS: readonly ChainServiceMethod[] = CHAIN_SERVICE_METHODS.filter((name) => "actsFor" in SURFACE[name]);

/** A method name of {@link CHAIN_SERVICE_METHODS}. */
export type ChainServiceMethod = keyof typeof SURFACE;

function parseWith(schema: z.ZodTuple, args: readonly unknown[]): unknown[] {
  const parsed = schema.safeParse([...args]);
  if (parsed.success) return parsed.data as unknown[];
  const issue = parsed.error.issues[0];
  const [position, ...field] = issue?.path ?? [];
  const single = schema.def.items.length === 1;
  const where = typeof position !== "number" ? "arguments" : single ? field.join(".") || "argument" : [`argument ${position + 1}`, ...field].join(".");
  throw new ChainServiceError("invalid_request", `${where}: ${issue?.message ?? "invalid"}`);
}

/** The operational snapshot of `metrics()`: one grouped count per table, the deposit from the node (null when it did not answer). */
async function metricsOf(ctx: ServiceContext): Promise<ChainServiceMetrics> {
  const [writes, lockRows, deposit] = await Promise.all([
    countWrites(ctx.db),
    ctx.db.query<{ n: string | number }>("SELECT count(*) AS n FROM cs_pin_attempts WHERE locked_until > $1", [ctx.now()]),
    ctx.contracts.entryPoint.balanceOf(ctx.addresses.paymaster).then(
      (wei: bigint) => wei.toString(),
      () => null,
    ),
  ]);
  return {
    writes,
    pbkdf2Queue: pendingDerivations(),
    pinLockouts: Number(lockRows[0]?.n ?? 0),
    paymasterDepositWei: deposit,
    bundleSizes: Object.fromEntries([...ctx.bundleSizes].map(([size, n]) => [String(size), n])),
  };
}

/** Method calls not logged per call (polled by monitoring). */
const QUIET = new Set<string>(["metrics", "ready"]);

/**
 * A JSON-RPC node's error that a feature let through (a read while the node does not answer, a call that
 * reverts) as the service error it means: `chain_unavailable`, or `chain_reverted` / its specific code.
 * Errors are mapped here once, at the boundary; anything else passes unchanged.
 */
function fromNode(error: unknown): unknown {
  if (error instanceof ChainServiceError) return error;
  const ethersError = error !== null && typeof error === "object" && typeof (error as { code?: unknown }).code === "string" && "shortMessage" in error;
  return ethersError ? specificError(revertError(error)) : error;
}

/**
 * @internal The service object over a started context: each surface method, its arguments parsed here
 * once (`parse: "every-call"`), or only those of a call that arrived over a transport (`"remote-calls"`:
 * an in-process caller parsed them at its own boundary with the same schemas).
 */
export function serviceOver(ctx: ServiceContext, parse: NonNullable<ChainServiceConfig["parse"]> = "every-call"): ChainService {
  const service: Record<string, unknown> = {
    addresses: { ...ctx.addresses, operator: ctx.signers.operator, spendRecorder: ctx.signers.spendRecorder, chainId: ctx.chainId },
    close: () => ctx.close(),
  };
  for (const name of Object.keys(SURFACE) as ChainServiceMethod[]) {
    const entry = SURFACE[name] as {
      args: z.ZodTuple;
      scope?: (...args: unknown[]) => string;
      actsFor?: (...args: unknown[]) => number;
      run: (ctx: unknown, ...args: unknown[]) => Promise<unknown>;
    };
    const count = entry.args.def.items.length;
    service[name] = async (...args: unknown[]) => {
      if (QUIET.has(name)) return call(...args);
      const started = performance.now();
      const requestId = currentRequestId();
      try {
        const answer = await call(...args);
        ctx.log.debug("chain-service call", { method: name, request_id: requestId, ms: Math.round(performance.now() - started) });
        return answer;
      } catch (thrown) {
        const error = fromNode(thrown);
        const code = error instanceof ChainServiceError ? error.code : "internal_error";
        // A stored secret that fails its integrity check is an operator's matter: logged with the record's identity.
        const record =
          error instanceof ChainServiceError && code === "sealed_record_invalid" && error.cause instanceof Error ? { record: error.cause.message } : {};
        ctx.log[code === "internal_error" || code === "sealed_record_invalid" ? "error" : "debug"]("chain-service call failed", {
          method: name,
          request_id: requestId,
          code,
          ms: Math.round(performance.now() - started),
          ...record,
        });
        throw error;
      }
    };
    const call = async (...args: unknown[]) => {
      const remote = currentRemoteCall();
      // Parsed once: here, or by the in-process caller at its own boundary.
      const parsing = remote !== undefined || parse === "every-call";
      const given = entry.scope ? args.slice(0, count) : [...args];
      const parsed = parsing ? parseWith(entry.args, given) : given;
      // A call from another process made for a user carries the front service's word for that user.
      if (remote && entry.actsFor) await spendCallerAssertion(ctx, remote.assertion, { purpose: name, userUuid: entry.actsFor(...parsed) });
      if (!entry.scope) return entry.run(ctx, ...parsed);
      // The identity follows the arguments: optional arguments left out are passed as undefined.
      while (parsed.length < count) parsed.push(undefined);
      const options = parsing ? writeOptionsOf(args[count]) : (args[count] as WriteOptions | undefined);
      const identity: WriteIdentity = {
        scope: entry.scope(...parsed),
        idempotencyKey: options?.idempotencyKey ?? null,
        requestHash: requestHash(name, parsed),
        requestId: options?.requestId ?? currentRequestId() ?? null,
      };
      ctx.log.info("chain write requested", {
        method: name,
        scope: identity.scope,
        request_id: identity.requestId,
        idempotency_key: identity.idempotencyKey !== null,
      });
      // A request repeated under its idempotency key answers the first one's outcome, before any costly
      // work (a PIN unlock, a simulation); the unique key at record time keeps racing repeats to one write.
      const earlier = await ctx.writes.earlier(identity);
      if (earlier !== null) return ctx.writes.outcome(earlier);
      return entry.run(ctx, ...parsed, identity);
    };
  }
  return service as unknown as ChainService;
}
