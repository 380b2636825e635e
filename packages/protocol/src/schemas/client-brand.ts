import { imageSize } from "image-size";
import { z } from "zod";
import { LIMITS } from "../limits.js";

/** The logo types a client may upload, and the name `image-size` gives each. SVG is not one: it can carry script. */
export const LOGO_CONTENT_TYPES = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" } as const;

/** A logo's media type. */
export type LogoContentType = keyof typeof LOGO_CONTENT_TYPES;

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const c = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The WCAG 2 contrast ratio of white text on `hex` (1 to 21). The pages draw their buttons in the accent
 * colour with white text, in both themes, so an accent below {@link LIMITS.brandAccentMinContrast} is refused.
 *
 * @example
 * ```ts
 * contrastWithWhite("#1a56db"); // 6.3
 * ```
 */
export function contrastWithWhite(hex: string): number {
  return 1.05 / (luminance(hex) + 0.05);
}

/** The bytes of standard base64 text (`atob`: in browsers and Node alike). */
function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * What is wrong with a logo's bytes for its declared type, or null when nothing: the content must be that
 * type (read from the bytes, not trusted from the label), between 16 and 1,024 pixels on each side, and at
 * most {@link LIMITS.brandLogoMaxBytes}.
 *
 * @example
 * ```ts
 * logoProblem(bytes, "image/png"); // null, or "is an SVG image: upload a PNG, JPEG or WebP"
 * ```
 */
export function logoProblem(bytes: Uint8Array, contentType: LogoContentType): string | null {
  if (bytes.length > LIMITS.brandLogoMaxBytes) return `must be at most ${LIMITS.brandLogoMaxBytes} bytes (this one is ${bytes.length})`;
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    return "is not a PNG, JPEG or WebP image";
  }
  if (size.type === "svg") return "is an SVG image, which can carry script: upload a PNG, JPEG or WebP";
  if (size.type !== LOGO_CONTENT_TYPES[contentType]) return `is a ${size.type ?? "unknown"} image, not the ${contentType} its content_type says`;
  const { width = 0, height = 0 } = size;
  const [min, max] = [LIMITS.brandLogoMinPixels, LIMITS.brandLogoMaxPixels];
  if (width < min || height < min || width > max || height > max) return `must be ${min} to ${max} pixels on each side (this one is ${width}×${height})`;
  return null;
}

/** A logo upload: its media type and its bytes in standard base64, checked against each other here. */
export const logoUploadSchema = z
  .strictObject({
    content_type: z.enum(Object.keys(LOGO_CONTENT_TYPES) as [LogoContentType, ...LogoContentType[]], {
      error: "must be image/png, image/jpeg or image/webp (SVG is refused: it can carry script)",
    }),
    data_base64: z
      .string()
      .max(Math.ceil(LIMITS.brandLogoMaxBytes / 3) * 4, `must be at most ${LIMITS.brandLogoMaxBytes} bytes once decoded`)
      .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, "must be standard base64"),
  })
  .superRefine((logo, ctx) => {
    const problem = logoProblem(base64Bytes(logo.data_base64), logo.content_type);
    if (problem) ctx.addIssue({ code: "custom", path: ["data_base64"], message: problem });
  });

/** An accent colour: `#rrggbb`, dark enough for white text on it. */
export const accentColorSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour as #rrggbb")
  .transform((hex) => hex.toLowerCase())
  .refine(
    (hex) => contrastWithWhite(hex) >= LIMITS.brandAccentMinContrast,
    `must leave white text readable: a contrast of at least ${LIMITS.brandAccentMinContrast}:1 with white (WCAG AA); pick a darker colour`,
  );

/**
 * Body of `PATCH /v1/dev-user/clients/{client_id}/brand`: each field absent is kept, null clears it.
 */
export const clientBrandUpdateSchema = z
  .strictObject({
    display_name: z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters").nullable().optional(),
    accent_color: accentColorSchema.nullable().optional(),
    logo: logoUploadSchema.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "needs at least one of display_name, accent_color, logo");

/** A checked brand change (the accent lower-cased). */
export type ClientBrandUpdate = z.output<typeof clientBrandUpdateSchema>;

/** A client's brand as the pages show it: each null when not set; `logo_url` on the service's own origin. */
export const clientBrandSchema = z.strictObject({
  display_name: z.string().nullable(),
  accent_color: z.string().nullable(),
  logo_url: z.string().nullable(),
});

/** Answer of the brand endpoints. */
export const clientBrandResponseSchema = z.strictObject({ success: z.literal(true), brand: clientBrandSchema });
