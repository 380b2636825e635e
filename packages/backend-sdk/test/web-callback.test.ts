import { describe, expect, expectTypeOf, it } from "vitest";
import { type CallbackParams, type FetchLike, type PendingStore, SlotgateBackend, silentLogger } from "../src/index.js";

/** A PendingStore in memory whose `complete` waits until the test releases it (a slow shared store). */
function gatedStore(): { store: PendingStore; completed: CallbackParams[]; release(): void } {
  const boxes = new Map<string, CallbackParams | "pending">();
  const completed: CallbackParams[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const store: PendingStore = {
    add: async (state) => {
      boxes.set(state, "pending");
    },
    complete: async (state, callback) => {
      await gate;
      if (boxes.get(state) !== "pending") return false;
      boxes.set(state, callback);
      completed.push(callback);
      return true;
    },
    take: async (state) => {
      const box = boxes.get(state);
      if (box === undefined || box === "pending") return null;
      boxes.delete(state);
      return box;
    },
    remove: async (state) => {
      boxes.delete(state);
    },
  };
  return { store, completed, release: () => release() };
}

function backend(store?: PendingStore): SlotgateBackend {
  const fetch: FetchLike = async () => {
    throw new Error("network disabled");
  };
  return new SlotgateBackend({
    authServerUrl: "http://svc.test",
    clientId: "sg_unit",
    clientSecret: "unit-secret",
    redirectUri: "http://127.0.0.1:1/cb",
    fetch,
    logger: silentLogger,
    ...(store ? { pendingStore: store } : {}),
  });
}

/** Next.js's check of a route export's first argument (`.next/types/…/route.ts`): the last overload's first parameter. */
type FirstArg<T> = T extends (...args: [infer A, never]) => unknown ? (unknown extends A ? never : A) : never;

describe("handleCallback's types", () => {
  it("a web Request call is typed Promise<Response>, a Node call Promise<void>; the last signature takes a Request", () => {
    const b = backend();
    expectTypeOf(b.handleCallback(new Request("https://game.example/cb"))).toEqualTypeOf<Promise<Response>>();
    const res = { statusCode: 0, setHeader() {}, end() {} };
    expectTypeOf(b.handleCallback({ url: "/cb", headers: { host: "game.example" } }, res)).toEqualTypeOf<Promise<void>>();
    expectTypeOf<Parameters<typeof b.handleCallback>[0]>().toEqualTypeOf<Request>();
    expectTypeOf<FirstArg<typeof b.handleCallback>>().toEqualTypeOf<Request>();
  });
});

describe("handleCallback(Request) on web standards", () => {
  it("resolves its Response only once the callback was handed to the instance that waits for it", async () => {
    const { store, completed, release } = gatedStore();
    // The state is pending on another instance: this one only hands the callback over.
    const state = "S".repeat(43);
    await store.add(state, 15_000);
    const b = backend(store);
    let answered = false;
    const answer = b.handleCallback(new Request(`https://game.example/cb?state=${state}&code=c&success=1`, { method: "POST" })).then((r) => {
      answered = true;
      return r;
    });
    for (let i = 0; i < 20; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toBe(false); // a serverless function returning now could be frozen before the hand-over
    expect(completed).toEqual([]);
    release();
    const res = await answer;
    expect(completed).toEqual([{ state, code: "c", success: "1" }]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    await b.shutdown();
  });

  it("the Node adapter answers at once, without waiting for the hand-over (a Node server keeps running)", async () => {
    const { store, completed, release } = gatedStore();
    const state = "T".repeat(43);
    await store.add(state, 15_000);
    const b = backend(store);
    const res = {
      statusCode: 0,
      body: "",
      setHeader() {},
      end(body?: string) {
        res.body = body ?? "";
      },
    };
    const done = b.handleCallback({ url: `/cb?state=${state}&code=c&success=1`, method: "POST" }, res);
    await new Promise((r) => setTimeout(r, 20));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"success":true}');
    expect(completed).toEqual([]);
    release();
    await done;
    expect(completed).toHaveLength(1);
    await b.shutdown();
  });

  it("is bound and ignores what platforms pass after the request (Next.js context, a Worker's env and ctx, Deno's info)", async () => {
    const b = backend();
    const POST: (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response> = b.handleCallback;
    const workerFetch: (request: Request, env: unknown, ctx: { waitUntil(p: Promise<unknown>): void }) => Promise<Response> = b.handleCallback;
    const denoHandler: (request: Request, info: { remoteAddr: unknown }) => Promise<Response> = b.handleCallback;
    for (const res of [
      await POST(new Request("https://game.example/cb"), { params: Promise.resolve({}) }),
      await workerFetch(new Request("https://game.example/cb"), { SECRET: "x" }, { waitUntil() {} }),
      await denoHandler(new Request("https://game.example/cb"), { remoteAddr: { hostname: "127.0.0.1" } }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ success: true });
    }
  });
});

/** A service answering authorize (recording the state) and get_token at once, through an injected fetch. */
function instantService(): { fetch: FetchLike; nextState(): Promise<string> } {
  const waiting: Array<(state: string) => void> = [];
  const fetch: FetchLike = async (input) => {
    const url = String(input);
    if (url.includes("/authorize")) {
      waiting.shift()?.(new URL(url).searchParams.get("state")!);
      return Response.json({ success: true, message: "accepted" });
    }
    return Response.json({
      success: true,
      id: "1",
      access_token: "t",
      token_type: "Bearer",
      expires_in: 3600,
      content_address: "",
      token_nickname: "n",
      tr_cnt: 0,
      code: "c",
    });
  };
  return { fetch, nextState: () => new Promise((resolve) => waiting.push(resolve)) };
}

function memoryStore(overrides: Partial<PendingStore> = {}): PendingStore & { calls: string[] } {
  const boxes = new Map<string, CallbackParams | "pending">();
  const calls: string[] = [];
  return {
    calls,
    pollIntervalMs: 10,
    add: async (state) => {
      calls.push("add");
      boxes.set(state, "pending");
    },
    complete: async (state, callback) => {
      calls.push("complete");
      if (boxes.get(state) !== "pending") return false;
      boxes.set(state, callback);
      return true;
    },
    take: async (state) => {
      const box = boxes.get(state);
      if (box === undefined || box === "pending") return null;
      boxes.delete(state);
      calls.push("taken");
      return box;
    },
    remove: async (state) => {
      calls.push("remove");
      boxes.delete(state);
    },
    ...overrides,
  };
}

describe("getSlotInfo waiting on a PendingStore", () => {
  const jwt = `e30.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 600 }))}.sig`;
  const withService = (service: ReturnType<typeof instantService>, store: PendingStore, logger = silentLogger) =>
    new SlotgateBackend({
      authServerUrl: "http://svc.test",
      clientId: "sg_unit",
      clientSecret: "s",
      redirectUri: "http://127.0.0.1:1/cb",
      fetch: service.fetch,
      logger,
      pendingStore: store,
    });

  it("a callback reaching the waiting instance itself is delivered there, without a store round trip", async () => {
    const service = instantService();
    const store = memoryStore();
    const b = withService(service, store);
    const pending = b.getSlotInfo(jwt);
    const state = await service.nextState();
    await b.handleCallback(new Request(`https://game.example/cb?state=${state}&code=c&success=1`));
    expect((await pending).id).toBe("1");
    expect(store.calls).toEqual(["add", "remove"]); // never completed nor taken through the store
    await b.shutdown();
  });

  it("keeps waiting through a store that fails to read for a while, warns once, and completes when it recovers", async () => {
    const service = instantService();
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    let failures = 3;
    const shared = memoryStore();
    const flaky = memoryStore({
      ...shared,
      take: async (state) => {
        if (failures-- > 0) throw new Error("store unreachable");
        return shared.take(state);
      },
    });
    const waiter = withService(service, flaky, logger);
    const receiver = withService(instantService(), shared);
    const pending = waiter.getSlotInfo(jwt);
    const state = await service.nextState();
    await receiver.handleCallback(new Request(`https://game.example/cb?state=${state}&code=c&success=1`));
    expect((await pending).id).toBe("1");
    expect(failures).toBeLessThan(0);
    expect(warnings).toEqual(["could not read the pending store; retrying until the call times out"]);
    await Promise.all([waiter.shutdown(), receiver.shutdown()]);
  });
});
