import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";
import { CHECK_GROUPS, ConformanceError, contentTokenChecks, deviceExpiryChecks, expiredTokenChecks, startCallbackReceiver } from "../src/index.js";
import { inputValue, scriptById, tags } from "../src/html.js";

describe("public surface", () => {
  it("exports the suite, the context, the receiver, and every check function by name", () => {
    const names = Object.keys(api).sort();
    for (const name of ["defineConformanceSuite", "createConformanceContext", "startCallbackReceiver", "ConformanceError", "CHECK_GROUPS"]) {
      expect(names).toContain(name);
    }
    const groups = [...Object.values(CHECK_GROUPS), contentTokenChecks, expiredTokenChecks, deviceExpiryChecks];
    const checks = groups.flatMap((g) => Object.values(g));
    expect(new Set(checks).size, "no check registered twice").toBe(checks.length);
    const exported = new Set(Object.values(api));
    for (const check of checks) expect(exported.has(check), `${check.name} is exported by name`).toBe(true);
    expect(checks.length).toBe(97);
  });
});

describe("HTML reading", () => {
  const page = `<form action="/oauth/authorize" method="POST"><input value="a&amp;b" type="hidden" name='state'>
    <input name=email><button name="decision" value="approve">ok</button>
    <script id="slotgate-result" type="application/json">{"x":1}</script></form>`;

  it("reads attributes in any order and quoting, decoding entities", () => {
    expect(inputValue(page, "state")).toBe("a&b");
    expect(tags(page, "input").some((i) => i["name"] === "email")).toBe(true);
    expect(inputValue(page, "missing")).toBeUndefined();
    expect(tags(page, "form")[0]).toMatchObject({ action: "/oauth/authorize", method: "POST" });
  });

  it("finds a script by id whatever the attribute order", () => {
    expect(scriptById(page, "slotgate-result")).toBe('{"x":1}');
    expect(scriptById(page, "other")).toBeUndefined();
  });
});

describe("callback receiver (real HTTP on 127.0.0.1)", () => {
  it("answers 200 at once and hands over the callback by state, before or after it arrives", async () => {
    const receiver = await startCallbackReceiver();
    try {
      expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/slotgate\/callback$/);
      const waiting = receiver.waitFor("s-2");
      const first = await fetch(`${receiver.url}?code=c1&state=s-1&success=1`, { method: "POST" });
      expect(first.status).toBe(200);
      await fetch(`${receiver.url}?code=c2&state=s-2&success=1`, { method: "POST", body: "x" });
      expect(await waiting).toMatchObject({ method: "POST", path: "/slotgate/callback", query: { code: "c2", state: "s-2", success: "1" }, body: "x" });
      expect((await receiver.waitFor("s-1")).query["code"]).toBe("c1");
      expect(receiver.has("s-3")).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it("rejects with ConformanceError callback_timeout when no callback arrives", async () => {
    const receiver = await startCallbackReceiver();
    try {
      const error = await receiver.waitFor("never", 20).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConformanceError);
      expect((error as ConformanceError).code).toBe("callback_timeout");
    } finally {
      await receiver.close();
    }
  });
});
