/**
 * The developer-center page's DOM: typed element lookups, table rows, and the status line under the page.
 */

/** An element class such as `HTMLInputElement`: what {@link byId} checks the element against. */
type ElementClass<T extends HTMLElement> = { new (): T; prototype: T; name: string };

/**
 * The element with id `id`, checked to be a `type`. A missing or different element is a bug of the page
 * (its HTML and this script ship together), so it throws at once.
 *
 * @example
 * ```ts
 * byId("email", HTMLInputElement).value;
 * ```
 */
export function byId<T extends HTMLElement = HTMLElement>(id: string, type?: ElementClass<T>): T {
  const element = document.getElementById(id);
  if (!(element instanceof (type ?? HTMLElement))) throw new Error(`The page has no ${(type ?? HTMLElement).name} #${id}`);
  return element as T;
}

/** Shows or hides element `id` (the page's `.hidden` class). */
export function setHidden(id: string, hidden: boolean): void {
  byId(id).classList.toggle("hidden", hidden);
}

/** Replaces the rows of table body `id` with one row per item, made by `fill`. */
export function fillRows<T>(id: string, items: readonly T[], fill: (row: HTMLTableRowElement, item: T) => void): void {
  const body = byId(id, HTMLTableSectionElement);
  body.textContent = "";
  for (const item of items) {
    const row = document.createElement("tr");
    fill(row, item);
    body.appendChild(row);
  }
}

/** Appends a cell holding `text` (as text, never markup). */
export function cell(row: HTMLTableRowElement, text: string): void {
  const td = document.createElement("td");
  td.textContent = text;
  row.appendChild(td);
}

/** Appends a cell holding a button labelled `label` (`ariaLabel` names what it acts on). */
export function buttonCell(row: HTMLTableRowElement, label: string, ariaLabel: string, onClick: () => void): void {
  const td = document.createElement("td");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.setAttribute("aria-label", ariaLabel);
  button.addEventListener("click", onClick);
  td.appendChild(button);
  row.appendChild(td);
}

/** Says what just happened in the status line and clears the error line. */
export function say(text: string): void {
  byId("notice").textContent = text;
  byId("error").textContent = "";
}

/** Shows a failure (`error: message` of the service, or the browser's own) in the error line. */
export function fail(error: unknown): void {
  byId("error").textContent = error instanceof Error ? error.message : String(error);
}

/** The value of input or text area `id`. */
export function fieldValue(id: string): string {
  const element = document.getElementById(id);
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return element.value;
  throw new Error(`The page has no form field #${id}`);
}

/** The lines (or space-separated words) of text area `id`, without empty ones: a redirect-URI list. */
export function listOf(id: string): string[] {
  return fieldValue(id).split(/\s+/).filter(Boolean);
}

/** Whether a client application is public (a game or desktop build with no secret; its codes are proven with PKCE). */
export function isPublic(client: { token_endpoint_auth_method?: string | undefined }): boolean {
  return client.token_endpoint_auth_method === "none";
}
