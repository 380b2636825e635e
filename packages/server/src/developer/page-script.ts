import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Request, Response } from "express";

/**
 * A page's browser script, type-checked and bundled at build time (`tsup.config.ts`: `src/…/browser/*.ts`
 * to `dist/assets/{name}.js`) and served as a static asset under a path that names its content hash.
 */
export interface PageScript {
  /** Where it is served: `{base}/{name}.{hash}.js`, a new path for every build of the script. */
  readonly path: string;
  /** Its Subresource Integrity value (`sha256-…`) for the page's `<script integrity>`. */
  readonly integrity: string;
  /** The script. */
  readonly source: Buffer;
}

/**
 * Reads the built script `name` once (at start-up); throws when the package was not built.
 *
 * @example
 * ```ts
 * const script = loadPageScript("developer-center", "/developer");
 * router.get(script.path, servePageScript(script));
 * ```
 */
export function loadPageScript(name: string, base: string): PageScript {
  const root = dirname(createRequire(import.meta.url).resolve("@slotgate/server/package.json"));
  const file = join(root, "dist", "assets", `${name}.js`);
  let source: Buffer;
  try {
    source = readFileSync(file);
  } catch {
    throw new Error(`The page script ${file} is missing: build @slotgate/server first (npm run build -w @slotgate/server)`);
  }
  const digest = createHash("sha256").update(source).digest();
  return { path: `${base}/${name}.${digest.toString("hex").slice(0, 16)}.js`, integrity: `sha256-${digest.toString("base64")}`, source };
}

/** Answers a {@link PageScript}: JavaScript, cached for good (its path changes with its content). */
export function servePageScript(script: PageScript): (req: Request, res: Response) => void {
  return (_req, res) => {
    res.setHeader("Content-Type", "text/javascript; charset=utf-8");
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.send(script.source);
  };
}
