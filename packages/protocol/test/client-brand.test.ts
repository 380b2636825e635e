import { describe, expect, it } from "vitest";
import { clientBrandUpdateSchema, contrastWithWhite, logoProblem } from "../src/schemas/client-brand.js";

// A 32×32 PNG (one colour), made for this test.
const PNG_32 = "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAKklEQVR42mPQyr9NU8QwasGoBaMWjFowasGoBaMWjFowasGoBaMWDBULAFik0ExkPGvBAAAAAElFTkSuQmCC";
const bytes = (base64: string) => Uint8Array.from(Buffer.from(base64, "base64"));
/** A PNG signature and IHDR claiming `width`×`height` (enough for the size check). */
function pngHeader(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 2, 0, 0, 0], 16);
  return Uint8Array.from(Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), ihdr]));
}
const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script></svg>');

describe("client brand", () => {
  it("accepts a PNG that is what it says, and refuses SVG, a mislabelled image, non-images and bad sizes", () => {
    expect(logoProblem(bytes(PNG_32), "image/png")).toBeNull();
    expect(logoProblem(svg, "image/png")).toMatch(/SVG/);
    expect(logoProblem(bytes(PNG_32), "image/jpeg")).toMatch(/is a png image, not the image\/jpeg/);
    expect(logoProblem(new TextEncoder().encode("hello, not an image"), "image/png")).toMatch(/not a PNG, JPEG or WebP/);
    expect(logoProblem(pngHeader(4096, 4096), "image/png")).toMatch(/16 to 1024 pixels.*4096×4096/);
    expect(logoProblem(pngHeader(8, 8), "image/png")).toMatch(/8×8/);
    expect(logoProblem(new Uint8Array(41 * 1024), "image/png")).toMatch(/at most 40960 bytes/);
  });

  it("takes an accent only with white text readable on it (WCAG 4.5:1), lower-cased", () => {
    expect(contrastWithWhite("#ffffff")).toBeCloseTo(1, 5);
    expect(contrastWithWhite("#000000")).toBeCloseTo(21, 5);
    expect(clientBrandUpdateSchema.parse({ accent_color: "#1A56DB" })).toEqual({ accent_color: "#1a56db" });
    const pale = clientBrandUpdateSchema.safeParse({ accent_color: "#ffd966" });
    expect(pale.success).toBe(false);
    expect(pale.error?.issues[0]?.message).toMatch(/4\.5:1/);
  });

  it("refuses an SVG upload by its content_type, an empty body and unknown fields; null clears a field", () => {
    const asSvg = clientBrandUpdateSchema.safeParse({ logo: { content_type: "image/svg+xml", data_base64: Buffer.from(svg).toString("base64") } });
    expect(asSvg.error?.issues[0]?.message).toMatch(/SVG is refused/);
    expect(clientBrandUpdateSchema.safeParse({}).success).toBe(false);
    expect(clientBrandUpdateSchema.safeParse({ colour: "#000000" }).success).toBe(false);
    expect(clientBrandUpdateSchema.parse({ display_name: null, logo: null })).toEqual({ display_name: null, logo: null });
    expect(clientBrandUpdateSchema.parse({ logo: { content_type: "image/png", data_base64: PNG_32 } }).logo?.content_type).toBe("image/png");
  });
});
