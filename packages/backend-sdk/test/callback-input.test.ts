import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FetchLike, SlotgateBackend, silentLogger } from "../src/index.js";

function backend(fetch: FetchLike): SlotgateBackend {
  return new SlotgateBackend({
    authServerUrl: "http://svc.test",
    clientId: "sg_unit",
    clientSecret: "unit-secret",
    redirectUri: "http://127.0.0.1:1/cb",
    fetch,
    logger: silentLogger,
  });
}

function fakeResponse() {
  const res = {
    statusCode: 0,
    headers: {} as Record<string, string>,
    body: "",
    setHeader(n: string, v: string) {
      res.headers[n] = v;
    },
    end(b?: string) {
      res.body = b ?? "";
    },
  };
  return res;
}

describe("handleCallback input (network disabled)", () => {
  it("answers 200 and never throws for any URL or query object (property)", async () => {
    let requests = 0;
    const b = backend(async () => {
      requests++;
      throw new Error("network disabled");
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.webUrl({ withQueryParameters: true }).map((u) => new URL(u).pathname + new URL(u).search),
        ),
        async (url) => {
          const res = fakeResponse();
          await b.handleCallback({ url }, res);
          expect(res.statusCode).toBe(200);
          expect(res.body).toBe('{"success":true}');
        },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string()), fc.integer())), async (query) => {
        const res = fakeResponse();
        await b.handleCallback({ query }, res);
        expect(res.statusCode).toBe(200);
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.constantFrom("GET", "POST", "PUT"), async (url, method) => {
        const res = await b.handleCallback(new Request(url, { method }));
        expect(res.status).toBe(200);
        expect(res.headers.get("cache-control")).toBe("no-store");
        expect(await res.json()).toEqual({ success: true });
      }),
    );
    expect(requests).toBe(0); // nothing pending: no callback leads to a code exchange
  });

  it("uses a repeated parameter as absent: state=a&state=b matches nothing", async () => {
    const seen: string[] = [];
    const b = backend(async (input) => {
      const url = String(input);
      seen.push(url);
      if (url.includes("/authorize")) return Response.json({ success: true, message: "ok" });
      return Response.json({ success: true, id: "1", access_token: "t", content_address: "", token_nickname: "n", tr_cnt: 0, code: "c" });
    });
    const jwt = `e30.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 60 }))}.sig`;
    const pending = b.getSlotInfo(jwt, { timeout: 200 }).catch((e: { code: string }) => e.code);
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 1));
    const state = new URL(seen[0]!).searchParams.get("state")!;
    b.handleCallback({ url: `/cb?state=${state}&state=${state}&code=c&success=1` }, fakeResponse());
    expect(await pending).toBe("callback_timeout");
    expect(seen.filter((u) => u.includes("get_token"))).toHaveLength(0);
  });
});

describe("local expiry check with a frozen clock", () => {
  const at = Date.UTC(2030, 0, 1) / 1000;
  const jwtExpiring = (exp: number) => `e30.${btoa(JSON.stringify({ sub: "1", exp })).replace(/=+$/, "")}.sig`;

  it.each([
    [at - 31, "expired_token"],
    [at - 30, "expired_token"],
    [at - 29, "sent"],
    [at + 3600, "sent"],
  ])("exp %d at a fixed now: %s (30 s skew, as the service)", async (exp, expected) => {
    let sent = 0;
    const realNow = Date.now;
    Date.now = () => at * 1000;
    try {
      const b = backend(async () => {
        sent++;
        return new Response("{}", { status: 500 });
      });
      const outcome = await b.getSlotInfo(jwtExpiring(exp)).catch((e: { code: string }) => e.code);
      expect(sent === 1 ? "sent" : outcome).toBe(expected);
    } finally {
      Date.now = realNow;
    }
  });
});
