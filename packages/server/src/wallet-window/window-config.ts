/**
 * The JSON island a wallet window page gives its script (`pages.tsx` writes it, `browser/wallet-window.ts` reads it):
 * one type for both sides.
 */

/** What the window's script needs: which page, where to post, and the texts it shows. Never a secret. */
export interface WindowConfig {
  page: "confirm" | "pin-setup" | "pin-reset" | "recover" | "approvals";
  /** The player's user id (the IndexedDB key of the sealed key share). */
  userId: string;
  /** The double-submit CSRF token (its cookie was set with the page). */
  csrfToken: string;
  /** Where the form posts (same origin). */
  postUrl: string;
  /** Where deny posts (confirm page only). */
  denyUrl?: string;
  /** Where the recovery's code request posts (recover page only). */
  codeUrl?: string;
  /** The result page the window goes to once done (`?outcome=` added). */
  resultUrl: string;
  /** Texts in the page's language, by key. */
  messages: Record<string, string>;
}
