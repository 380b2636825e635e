/**
 * The redirect page's half of the COOP fallback, shared by `handleLoginCallback` and `handleWalletCallback`:
 * reads this page's fragment with `read` (undefined: not a result for this channel, nothing happens), removes
 * the fragment from the address bar and history, posts the message on the same-origin `BroadcastChannel`
 * named `channel`, and closes the window 100 ms later unless `close` is false. Returns whether it relayed.
 * @internal
 */
export function relayFragment(read: (params: Record<string, string>) => object | undefined, channel: string, close: boolean | undefined): boolean {
  const message = read(Object.fromEntries(new URLSearchParams(window.location.hash.slice(1))));
  if (!message) return false;
  history.replaceState(history.state, "", window.location.pathname + window.location.search);
  try {
    const bc = new BroadcastChannel(channel);
    bc.postMessage(message);
    bc.close();
  } catch {
    return false;
  }
  if (close !== false) setTimeout(() => window.close(), 100);
  return true;
}
