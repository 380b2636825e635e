import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../src/cli/args.js";

describe("parseCliArgs", () => {
  it("maps the kebab-case flags onto the PascalCase config", () => {
    expect(
      parseCliArgs([
        "--client-id",
        "g",
        "--redirect-uri=http://127.0.0.1/callback",
        "--slotgate-url",
        "https://auth.example.test",
        "--loopback-port",
        "53682",
        "--timeout-ms",
        "5000",
      ]),
    ).toEqual({
      kind: "login",
      config: {
        ClientId: "g",
        RedirectUri: "http://127.0.0.1/callback",
        SlotgateUrl: "https://auth.example.test",
        LoopbackPort: 53682,
      },
      timeoutMs: 5000,
    });
  });

  it("leaves SlotgateUrl, LoopbackPort and the timeout to the library defaults", () => {
    expect(parseCliArgs(["--client-id", "g", "--redirect-uri", "http://127.0.0.1:1/callback"])).toEqual({
      kind: "login",
      config: { ClientId: "g", RedirectUri: "http://127.0.0.1:1/callback" },
      timeoutMs: undefined,
    });
  });

  it.each([
    [["--client-id"], "--client-id needs a value"],
    [["--client-id", "--redirect-uri", "x"], "--client-id needs a value"],
    [["--client-id", "a", "--client-id", "b"], "given more than once"],
    [["--help=yes"], "--help takes no value"],
    [["--secret", "x"], "--secret is not accepted"],
    [["--timeout-ms", "-1"], "--timeout-ms needs a value"],
    [["--timeout-ms=1e3"], "--timeout-ms must be a whole number"],
  ])("refuses %j", (args, fragment) => {
    expect(() => parseCliArgs(args)).toThrow(fragment);
  });

  it("gives --help precedence over missing flags", () => {
    expect(parseCliArgs(["--help"])).toEqual({ kind: "help" });
    expect(parseCliArgs(["--version"])).toEqual({ kind: "version" });
  });
});
