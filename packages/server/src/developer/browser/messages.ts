import type { MessageId } from "../../platform/i18n/messages/en.js";
import { byId } from "./dom.js";

/** A message the script writes: the catalogues' `devScript.*` ones. */
export type ScriptMessageId = Extract<MessageId, `devScript.${string}`>;

/**
 * The page's messages for the script, in the page's language: the JSON island `#dev-messages` that
 * `renderDeveloperCenter` writes from the catalogues (`scriptMessages`): each message as its text and the
 * names of its `{arguments}`, alternating.
 */
let catalogue: Record<string, string[]> | undefined;

function messages(): Record<string, string[]> {
  catalogue ??= JSON.parse(byId("dev-messages").textContent ?? "{}") as Record<string, string[]>;
  return catalogue;
}

/** Fills in a template: text parts at even indexes, argument names at odd ones; numbers in the page's language. */
function fill(parts: readonly string[], values: Record<string, string | number>): string {
  const numbers = new Intl.NumberFormat(document.documentElement.lang || undefined);
  return parts
    .map((part, i) => {
      if (i % 2 === 0) return part;
      const value = values[part];
      return typeof value === "number" ? numbers.format(value) : (value ?? "");
    })
    .join("");
}

/**
 * The message `id` in the page's language, with `values` filled in.
 *
 * @example
 * ```ts
 * say(t("devScript.retrying", { id: delivery.id }));
 * ```
 */
export function t(id: ScriptMessageId, values: Record<string, string | number> = {}): string {
  const parts = messages()[id];
  if (!parts) throw new Error(`The page has no message ${id}`);
  return fill(parts, values);
}

/**
 * What an API error answer says to the developer: its code, then the page's translation of the code when the
 * page has one, else the server's own message.
 *
 * @example
 * ```ts
 * throw new Error(errorText(body.error, body.message)); // "invalid_credentials: メールアドレスまたはパスワードが正しくありません。"
 * ```
 */
export function errorText(code: string, message: string): string {
  const parts = messages()[`error.${code}`];
  return `${code}: ${parts ? fill(parts, {}) : message}`;
}
