import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** Every module of `src`, with the modules of `src` it imports (type-only imports included: they tie modules together too). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(SRC, file), "utf8"), true, true);
    const local = importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => relative(SRC, resolve(SRC, dirname(file), name)).replace(/\.js$/, ".ts"));
    graph.set(file, local);
  }
  return graph;
}

/** The import circles of a graph: each as the path of modules that leads back to its first. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

describe("the chain service's modules", () => {
  it("import each other without a circle (the context's type and its start-up included)", () => {
    const graph = importGraph();
    expect(graph.get("context.ts")).toContain("service-context.ts");
    expect(circles(graph).map((circle) => circle.join(" > "))).toEqual([]);
  });

  it("the circle finder finds a circle", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(circles(graph)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
  });
});
