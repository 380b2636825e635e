import { vi } from "vitest";

/**
 * A stand-in for the WindowProxy that `window.open` returns, with the two states the SDK reads:
 * `closed`, and whether `location` is readable (about:blank, same origin) or throws (service origin).
 */
export interface FakePopup {
  closed: boolean;
  /** The popup committed a cross-origin navigation: reading `location` throws. */
  crossOrigin: boolean;
  /** What `location.href` reads while not cross-origin. */
  href: string;
  close: () => void;
  focus: ReturnType<typeof vi.fn>;
  readonly location: { href: string };
}

export function fakePopup(): FakePopup {
  const popup = {
    closed: false,
    crossOrigin: false,
    href: "about:blank",
    close() {
      popup.closed = true;
    },
    focus: vi.fn(),
    get location() {
      if (popup.crossOrigin) throw new DOMException("Blocked a frame with origin", "SecurityError");
      return { href: popup.href };
    },
  };
  return popup;
}

/** Stubs `window.open` to hand out `popup` (or null: blocked) and records the calls. */
export function stubWindowOpen(popup: FakePopup | null) {
  return vi.spyOn(window, "open").mockImplementation(() => popup as unknown as Window);
}

/** Dispatches a `message` event on this window, as the popup's `postMessage` would. */
export function postFromPopup(data: unknown, origin: string, source: unknown): void {
  const event = new MessageEvent("message", { data, origin });
  Object.defineProperty(event, "source", { value: source });
  window.dispatchEvent(event);
}

/** A compact JWT (unsigned: the SDK only decodes `exp`) expiring at `exp` seconds. */
export function jwtWithExp(exp: number | undefined): string {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${b64({ alg: "ES256", typ: "JWT" })}.${b64({ sub: "42", ...(exp === undefined ? {} : { exp }) })}.c2ln`;
}
