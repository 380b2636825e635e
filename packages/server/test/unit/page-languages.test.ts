import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { ar } from "../../src/platform/i18n/messages/ar.js";
import { en } from "../../src/platform/i18n/messages/en.js";
import { ja } from "../../src/platform/i18n/messages/ja.js";
import { ko } from "../../src/platform/i18n/messages/ko.js";
import { LOCALES, negotiateLocale, translator } from "../../src/platform/i18n/translator.js";
import { renderSignInForm } from "../../src/oauth/authorize/pages.js";
import { SlotgateServerError } from "../../src/platform/http/errors.js";

/** Express's `acceptsLanguages` over a given header, as the pages call it. */
function request(acceptLanguage?: string) {
  return {
    acceptsLanguages(...languages: string[]): string | false {
      if (!acceptLanguage) return languages[0] ?? false;
      const ranked = acceptLanguage
        .split(",")
        .map((part) => {
          const [tag, q] = part.trim().split(";q=");
          return { tag: tag!.toLowerCase(), q: q === undefined ? 1 : Number(q) };
        })
        .sort((a, b) => b.q - a.q);
      for (const { tag, q } of ranked) {
        if (q <= 0) continue;
        const found = languages.find((l) => l === tag || l === tag.split("-")[0]);
        if (found) return found;
      }
      return false;
    },
  };
}

/** The argument and tag names a message uses. */
function names(elements: MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const e of elements) {
    if (e.type === TYPE.argument || e.type === TYPE.number || e.type === TYPE.date || e.type === TYPE.time) out.add(e.value);
    if (e.type === TYPE.tag) {
      out.add(`<${e.value}>`);
      names(e.children, out);
    }
    if (e.type === TYPE.plural || e.type === TYPE.select) {
      out.add(e.value);
      for (const option of Object.values(e.options)) names(option.value, out);
    }
  }
  return out;
}

describe("page languages", () => {
  it("ships English, Japanese, Korean and Arabic, Arabic right to left", () => {
    expect(LOCALES).toEqual(["en", "ja", "ko", "ar"]);
    expect(LOCALES.map((l) => translator(l).dir)).toEqual(["ltr", "ltr", "ltr", "rtl"]);
  });

  it("every catalogue has every English message, each parsing as ICU with the same arguments and tags", () => {
    for (const [name, catalogue] of Object.entries({ ja, ko, ar })) {
      expect(Object.keys(catalogue).sort(), name).toEqual(Object.keys(en).sort());
      for (const [id, message] of Object.entries(catalogue)) {
        const english = en[id as keyof typeof en];
        expect([...names(parse(message))].sort(), `${name} ${id}`).toEqual([...names(parse(english))].sort());
        expect(message, `${name} ${id} is translated`).not.toBe(english);
      }
    }
  });

  it("chooses ui_locales first (its first shipped tag), then Accept-Language by q, then English", () => {
    expect(negotiateLocale("ja", request("ko"))).toBe("ja");
    expect(negotiateLocale("fr-CA ko-KR en", request("ja"))).toBe("ko");
    expect(negotiateLocale("fr", request("fr;q=1, ar;q=0.5"))).toBe("ar");
    expect(negotiateLocale(undefined, request("ja-JP,ja;q=0.9,en;q=0.5"))).toBe("ja");
    expect(negotiateLocale(undefined, request("de"))).toBe("en");
    expect(negotiateLocale(undefined, request())).toBe("en");
    expect(negotiateLocale(["ja"], request())).toBe("en");
  });

  it("translates a player-facing server error by its code, keeping the English message for a code without one", () => {
    expect(translator("ja").error(new SlotgateServerError("otp_invalid"))).toBe(ja["error.otp_invalid"]);
    expect(translator("ja").error(new SlotgateServerError("chain_unavailable"))).toBe("The blockchain node did not answer; retry later.");
  });

  it("formats waits in the page's language", () => {
    const locked = { id: "error.signInLocked" as const, durations: { lock: 900, wait: 61 } };
    expect(translator("en").error(locked)).toBe(
      "Too many wrong passwords for this account: sign-in is locked for 15 minutes. Try again in 61 seconds, or sign in another way.",
    );
    expect(translator("ja").error(locked)).toContain("15 分");
  });

  it("gives a page script a message as text and argument names, and refuses one it could not fill in (a plural)", () => {
    expect(translator("en").template("devScript.retrying")).toEqual(["Delivery ", "id", " is being retried."]);
    expect(translator("ko").template("devScript.attempts")).toEqual(["", "max", "회 중 ", "attempts", "회"]);
    expect(translator("ja").template("devScript.saved")).toEqual([ja["devScript.saved"]]);
    expect(() => translator("en").template("error.otpWrong")).toThrow(/plain \{arguments\}/);
  });

  it("gives the passkey script its two messages in the page's language (it writes no text of its own)", () => {
    const html = renderSignInForm("n", translator("ko"), { action: "/oauth/authorize", fields: {}, appName: "A", note: { id: "signIn.heading" } }, "c", {
      passkeys: true,
    });
    expect(html).toContain(`data-unsupported="${ko["passkey.unsupported"]}"`);
    expect(html).toContain(`data-failed="${ko["passkey.failed"]}"`);
  });
});
