import { renderUnicodeCompact } from "uqr";

/** A QR code of `text` in half-block characters for a terminal (dark modules on a light border). @internal */
export function renderQrCode(text: string): string {
  return renderUnicodeCompact(text, { border: 2 });
}
