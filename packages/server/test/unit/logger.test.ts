import { runWithRequestId } from "@slotgate/chain-service";
import { describe, expect, it } from "vitest";
import { REDACTED_KEYS, createLogger } from "../../src/platform/config/logger.js";

const collect = (level: Parameters<typeof createLogger>[0]) => {
  const lines: string[] = [];
  return { log: createLogger(level, (l) => lines.push(l)), lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
};

describe("createLogger (pino)", () => {
  it("writes one JSON object per line: ISO time, level as a word, msg, fields", () => {
    const { log, parsed, lines } = collect("info");
    log.info("listening", { url: "http://127.0.0.1:8080" });
    log.debug("not written at info");
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("\n");
    expect(parsed()[0]).toMatchObject({ level: "info", msg: "listening", url: "http://127.0.0.1:8080" });
    expect(new Date(String(parsed()[0]!["time"])).toISOString()).toBe(parsed()[0]!["time"]);
  });

  it("writes nothing when silent; isLevelEnabled follows the level", () => {
    const { log, lines } = collect("silent");
    log.error("x");
    expect(lines).toEqual([]);
    expect(collect("warn").log.isLevelEnabled("info")).toBe(false);
    expect(collect("warn").log.isLevelEnabled("error")).toBe(true);
  });

  it("censors every redacted field name at the first three levels, keeps the rest", () => {
    const { log, lines } = collect("debug");
    const fields: Record<string, unknown> = { ok: "visible" };
    REDACTED_KEYS.forEach((key, i) => {
      fields[key] = `top-secret-${i}`;
    });
    log.debug("all keys", fields);
    log.debug("nested", {
      body: Object.fromEntries(REDACTED_KEYS.map((k, i) => [k, `nested-secret-${i}`])),
      req: { headers: { authorization: "Bearer deep-secret", cookie: "sid=deep-secret-2" } },
    });
    const all = lines.join("\n");
    expect(all).toContain('"ok":"visible"');
    expect(all).not.toMatch(/top-secret|nested-secret|deep-secret/);
    expect(all).toContain("[redacted]");
  });

  it("adds the current request's id to every line, and child bindings", () => {
    const { log, parsed } = collect("info");
    runWithRequestId("req-42", () => log.child({ component: "chain-service" }).info("inside"));
    log.info("outside");
    expect(parsed()[0]).toMatchObject({ request_id: "req-42", component: "chain-service", msg: "inside" });
    expect(parsed()[1]).not.toHaveProperty("request_id");
  });
});
