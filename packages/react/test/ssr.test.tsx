// @vitest-environment node
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SlotgateProvider, useSlotgate } from "../src/index.js";

function Status() {
  const { status, user, token } = useSlotgate();
  return <p>{`${status}:${user?.id ?? "-"}:${token ?? "-"}`}</p>;
}

describe("server rendering", () => {
  it("renders status loading with no window, storage or client (the same markup as the first browser render)", () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined");
    const html = renderToString(
      <SlotgateProvider options={{ slotgateUrl: "https://auth.slotgate.test", clientId: "sg_c", redirectUri: "https://game.test/callback" }}>
        <Status />
      </SlotgateProvider>,
    );
    expect(html).toBe("<p>loading:-:-</p>");
  });

  it("useSlotgate() outside a provider throws an error that says what to do", () => {
    expect(() => renderToString(<Status />)).toThrow("useSlotgate() must be called inside <SlotgateProvider>");
  });
});
