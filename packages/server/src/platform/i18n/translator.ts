import IntlMessageFormat from "intl-messageformat";
import { SlotgateServerError } from "../http/errors.js";
import { ar } from "./messages/ar.js";
import { en, type MessageId } from "./messages/en.js";
import { ja } from "./messages/ja.js";
import { ko } from "./messages/ko.js";

export type { MessageId } from "./messages/en.js";

/** The languages the hosted pages ship, English first (the fallback). */
export const LOCALES = ["en", "ja", "ko", "ar"] as const;

/** One shipped language. */
export type Locale = (typeof LOCALES)[number];

const CATALOGUES: Record<Locale, Record<MessageId, string>> = { en, ja, ko, ar };
const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set(["ar"]);

/** A message to show a player: its id and its values. */
export interface Shown {
  id: MessageId;
  values?: Record<string, string | number>;
  /** Values that are a number of seconds, formatted in the page's language ("60 seconds", "15分"). */
  durations?: Record<string, number>;
}

/**
 * A message to show a player.
 *
 * @example
 * ```ts
 * views.signIn(401, { error: shown("error.invalid_credentials"), email });
 * ```
 */
export function shown(id: MessageId, values?: Record<string, string | number>): Shown {
  return values ? { id, values } : { id };
}

/** The pages' messages in one language. */
export interface Translator {
  readonly locale: Locale;
  readonly dir: "ltr" | "rtl";
  /** The message `id` as text. */
  t(id: MessageId, values?: Record<string, string | number>): string;
  /** The message `id` with its tags (`<strong>…</strong>`) rendered by `values`' functions, e.g. as JSX elements. */
  rich<T>(id: MessageId, values: Record<string, string | number | ((chunks: Array<string | T>) => T)>): Array<string | T>;
  /** A player-facing error: a {@link Shown} message, or a server error by its code (its English message when the code has no translation). */
  error(error: Shown | SlotgateServerError): string;
  /**
   * The message `id` for a page script to fill in: its text and the names of its `{arguments}`, alternating
   * (`["Delivery ", "id", " is being retried."]`). Only text and plain arguments; throws on plurals, selects and tags.
   */
  template(id: MessageId): string[];
}

const formats = new Map<string, IntlMessageFormat>();

function format(locale: Locale, id: MessageId): IntlMessageFormat {
  const key = `${locale}\u0000${id}`;
  let found = formats.get(key);
  if (!found) {
    found = new IntlMessageFormat(CATALOGUES[locale][id], locale);
    formats.set(key, found);
  }
  return found;
}

/** A wait as people say it: seconds under two minutes, whole minutes (rounded up) from there. */
function durationText(locale: Locale, seconds: number): string {
  const [value, unit] = seconds < 120 ? [Math.max(0, Math.ceil(seconds)), "second"] : [Math.ceil(seconds / 60), "minute"];
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" }).format(value);
}

const translators = new Map<Locale, Translator>();

/**
 * The translator of `locale`.
 *
 * @example
 * ```ts
 * const tr = translator("ja");
 * tr.t("signIn.heading"); // "サインイン"
 * ```
 */
export function translator(locale: Locale): Translator {
  let found = translators.get(locale);
  if (found) return found;
  const t = (id: MessageId, values?: Record<string, string | number>) => String(format(locale, id).format(values));
  found = {
    locale,
    dir: RIGHT_TO_LEFT.has(locale) ? "rtl" : "ltr",
    t,
    rich<T>(id: MessageId, values: Record<string, string | number | ((chunks: Array<string | T>) => T)>) {
      const out = format(locale, id).format<T>(values as never);
      return Array.isArray(out) ? out : [out];
    },
    error(error) {
      if (error instanceof SlotgateServerError) {
        const id = `error.${error.code}`;
        return id in en ? t(id as MessageId) : error.message;
      }
      const durations = Object.entries(error.durations ?? {}).map(([k, v]) => [k, durationText(locale, v)]);
      return t(error.id, { ...error.values, ...Object.fromEntries(durations) });
    },
    template(id) {
      const parts = [""];
      for (const element of format(locale, id).getAst()) {
        // The parser's TYPE.literal (0) and TYPE.argument (1): the only elements a page script fills in.
        if (element.type === 0) parts[parts.length - 1] += element.value;
        else if (element.type === 1) parts.push(element.value, "");
        else throw new Error(`The message ${id} has more than text and plain {arguments}: a page script cannot fill it in`);
      }
      return parts;
    },
  };
  translators.set(locale, found);
  return found;
}

function primary(tag: string): Locale | undefined {
  const lang = tag.trim().toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((l) => l === lang);
}

/**
 * The page language: the first shipped one of OIDC `ui_locales` (space-separated BCP 47 tags, in order
 * of preference), then of the `Accept-Language` header (by its q-values, Express's `acceptsLanguages`),
 * then English.
 *
 * @example
 * ```ts
 * const tr = translator(negotiateLocale(req.query.ui_locales, req));
 * ```
 */
export function negotiateLocale(uiLocales: unknown, req: { acceptsLanguages(...languages: string[]): string | false }): Locale {
  if (typeof uiLocales === "string") {
    for (const tag of uiLocales.split(" ").slice(0, 10)) {
      const found = primary(tag);
      if (found) return found;
    }
  }
  const accepted = req.acceptsLanguages(...LOCALES);
  return (typeof accepted === "string" && primary(accepted)) || "en";
}
