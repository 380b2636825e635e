// @vitest-environment node
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SlotgateProvider } from "../src/index.js";
import { useSlotgateWallet } from "../src/wallet/index.js";

function Wallet() {
  const { busy, outcome, error, approvePurchases } = useSlotgateWallet();
  return <p>{`${busy}:${outcome?.action ?? "-"}:${error?.code ?? "-"}:${typeof approvePurchases}`}</p>;
}

describe("useSlotgateWallet() under server rendering", () => {
  it("renders its initial state with no window and creates no SlotgateWallet", () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined");
    const html = renderToString(
      <SlotgateProvider options={{ slotgateUrl: "https://auth.slotgate.test", clientId: "sg_c", redirectUri: "https://game.test/callback" }}>
        <Wallet />
      </SlotgateProvider>,
    );
    expect(html).toBe("<p>false:-:-:function</p>");
  });

  it("outside a provider throws an error that says what to do", () => {
    expect(() => renderToString(<Wallet />)).toThrow("useSlotgateWallet() must be called inside <SlotgateProvider>");
  });
});
