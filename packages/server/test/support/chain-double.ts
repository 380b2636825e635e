import { ChainServiceError, type ChainService, type ContentSlot } from "@slotgate/chain-service";
import type { ExchangeTokenOwnerRequest, ExchangeTokenOwnerResponse } from "@slotgate/protocol";
import type { ChainHandle } from "../../src/chain-api/chain/start-chain.js";

/** How the double settles one `exchangeSlotOwner` call. */
export type ExchangeOutcome =
  | { kind: "answer" } // the write landed within the wait: 200 with the answer
  | { kind: "pending" } // did not land within the wait: 202 with a write id, lands later (settleWrite)
  | { kind: "refused"; code: "replayed_message" | "not_owner" } // the chain service refused it: a coded 4xx
  | { kind: "broken" }; // an error of unknown outcome (a broken link): 500

/** One call the double received. */
export interface ExchangeCall {
  request: ExchangeTokenOwnerRequest;
  /** Settles the call (the request is answered); the test decides when. */
  settle(outcome: ExchangeOutcome): void;
  /** The write id answered for a `pending` outcome. */
  writeId: string | null;
}

/**
 * A chain service double at the ChainService boundary, for the listing lock's tests: the lock lives in
 * the server (one statement on the login-status row), so what the chain does with a sale is only when
 * the sale's write settles. The double records every `exchangeSlotOwner` call and lets the test settle
 * it (answer, pending 202 then confirmed/failed, refused, broken) at the moment it chooses. It knows
 * which client registered which cuid (`cuidClient`), the state of pending writes (`lookupWrite`), and
 * answers the code exchange (`providerStatus`, `contentSlot`) with simulated addresses.
 * Any other method throws: a test that reaches one uses the real chain service instead.
 */
export class ExchangeChainDouble {
  readonly calls: ExchangeCall[] = [];
  private readonly cuids = new Map<string, string>();
  private readonly writes = new Map<string, { owner: number; status: "pending" | "confirmed" | "failed" }>();
  private nextWrite = 1;
  /** Called when a call arrives (before the test settles it). */
  onCall: ((call: ExchangeCall) => void) | null = null;

  /** Records that `clientId` registered `cuid` (what the chain service's provider records say). */
  register(cuid: string, clientId: string): void {
    this.cuids.set(cuid, clientId);
  }

  /** Lands (or fails) a write answered as pending. */
  settleWrite(writeId: string, status: "confirmed" | "failed"): void {
    const write = this.writes.get(writeId);
    if (!write) throw new Error(`no write ${writeId}`);
    write.status = status;
  }

  /** The calls not settled yet. */
  get open(): ExchangeCall[] {
    return this.calls.filter((c) => !(c as { settled?: boolean }).settled);
  }

  /** The handle a server is started with. */
  handle(): ChainHandle {
    const service = new Proxy({} as ChainService, {
      get: (_target, name) => {
        if (name === "cuidClient") return async (cuid: string) => this.cuids.get(cuid) ?? null;
        if (name === "exchangeSlotOwner") return (request: ExchangeTokenOwnerRequest) => this.exchange(request);
        if (name === "lookupWrite") return async (owner: { user_uuid: number }, writeId: string) => this.lookup(owner, writeId);
        // The code exchange of a blockchain client answers the user's content_address: the active slot of the
        // client's first cuid (`providerStatus`, `contentSlot`), or the C_SALT wallet without a cuid.
        if (name === "providerStatus")
          return async (clientId: string) => ({ cuids: [...this.cuids].filter(([, c]) => c === clientId).map(([cuid]) => ({ cuid })) });
        if (name === "contentSlot") return async (userUuid: number, cuid?: string) => this.contentSlot(userUuid, cuid);
        if (name === "then") return undefined;
        return () => {
          throw new Error(`ExchangeChainDouble: ${String(name)} is not part of this double`);
        };
      },
    });
    return { mode: "rpc", service, devOperator: false, rpcUrl: null, close: async () => undefined };
  }

  private exchange(request: ExchangeTokenOwnerRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const call: ExchangeCall & { settled?: boolean } = {
        request,
        writeId: null,
        settle: (outcome) => {
          if (call.settled) throw new Error("settled twice");
          call.settled = true;
          if (outcome.kind === "answer") {
            const answer: ExchangeTokenOwnerResponse = {
              success: true,
              tx_hash: `0x${"ab".repeat(32)}`,
              meta_idx: request.meta_idx,
              new_owner: `0x${"cd".repeat(20)}`,
              tr_cnt: 1,
            };
            resolve(answer);
          } else if (outcome.kind === "pending") {
            call.writeId = `w${this.nextWrite++}`;
            this.writes.set(call.writeId, { owner: Number(request.from_uuid), status: "pending" });
            resolve({ success: true, status: "pending", write_id: call.writeId });
          } else if (outcome.kind === "refused") reject(new ChainServiceError(outcome.code, "refused by the double"));
          else reject(new Error("link broken (double)"));
        },
      };
      this.calls.push(call);
      this.onCall?.(call);
    });
  }

  /** The (simulated) wallet the code exchange names: one slot per user and cuid, or the C_SALT wallet without a cuid. */
  private contentSlot(userUuid: number, cuid?: string): ContentSlot {
    if (cuid === undefined) return { content_address: `0x${"02".repeat(20)}`, tr_cnt: 0 };
    return { content_address: `0x${userUuid.toString(16).padStart(40, "0")}`, tr_cnt: 0, cu_id: cuid, meta_idx: userUuid };
  }

  private lookup(owner: { user_uuid: number }, writeId: string) {
    const write = this.writes.get(writeId);
    if (!write || write.owner !== owner.user_uuid) throw new ChainServiceError("write_not_found", "no such write");
    return { success: true as const, write_id: writeId, status: write.status };
  }
}
