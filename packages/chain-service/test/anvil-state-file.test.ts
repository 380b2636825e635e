import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JsonRpcProvider } from "ethers";
import { afterAll, describe, expect, it } from "vitest";
import { checkStateFile } from "../src/chain/anvil.js";
import { startAnvil } from "../src/index.js";

const dirs: string[] = [];
const dir = () => {
  const made = mkdtempSync(join(tmpdir(), "slotgate-anvil-state-"));
  dirs.push(made);
  return made;
};
afterAll(() => {
  for (const made of dirs) rmSync(made, { recursive: true, force: true });
});

async function head(rpcUrl: string): Promise<number> {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true });
  try {
    return await provider.getBlockNumber();
  } finally {
    provider.destroy();
  }
}

describe("the development chain's state file", () => {
  it("is copied when complete, and a file cut short is set aside for that copy", () => {
    const stateDir = dir();
    const file = join(stateDir, "anvil-state.json");
    expect(checkStateFile(file)).toBeNull(); // no file yet: nothing to do
    writeFileSync(file, JSON.stringify({ best_block_number: 7 }));
    expect(checkStateFile(file)).toBeNull();
    expect(readFileSync(join(stateDir, "anvil-state.good.json"), "utf8")).toBe(JSON.stringify({ best_block_number: 7 }));

    writeFileSync(file, '{"best_block_number": 9, "blocks": [{"num'); // the node was killed mid-write
    expect(checkStateFile(file)).toMatch(
      /cut short .* set aside as .*anvil-state\.damaged-\d+\.json; the node started from the copy kept at the previous start/,
    );
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ best_block_number: 7 });
    expect(readdirSync(stateDir).filter((name) => name.startsWith("anvil-state.damaged-"))).toHaveLength(1);
  });

  it("without an earlier copy, a file cut short is set aside and the node starts empty", () => {
    const file = join(dir(), "anvil-state.json");
    writeFileSync(file, '{"accounts": {');
    expect(checkStateFile(file)).toMatch(/no earlier copy was kept, so the node started empty/);
    expect(existsSync(file)).toBe(false);
  });

  it("a real node killed while writing comes back from the copy kept at its previous start instead of refusing to start", async () => {
    const stateDir = dir();
    let anvil = await startAnvil({ port: 0, stateDir });
    const provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { staticNetwork: true });
    await provider.send("anvil_mine", ["0x5"]);
    provider.destroy();
    await anvil.stop(); // state written on the way out: 5 blocks
    anvil = await startAnvil({ port: 0, stateDir }); // this start keeps the good copy
    expect(anvil.restoredState).toBeNull();
    expect(await head(anvil.rpcUrl)).toBe(5);
    await anvil.stop();

    const file = join(stateDir, "anvil-state.json");
    truncateSync(file, Math.floor(readFileSync(file).length / 2)); // as a kill in the middle of a write leaves it
    anvil = await startAnvil({ port: 0, stateDir });
    try {
      expect(anvil.restoredState).toMatch(/cut short/);
      expect(await head(anvil.rpcUrl)).toBe(5);
    } finally {
      await anvil.stop();
    }
  });
});
