import { ContractFactory, ZeroAddress, id } from "ethers";
import { describe, expect, it } from "vitest";
import { contentTokenExchangeAbi, contentTokenExchangeBytecode } from "../src/index.js";
import { expectRevert } from "./support/chain.js";
import { CLIENT_ID, CUID, RELEASE_PER, useTestSystem } from "./support/system.js";

describe("ContentTokenExchange: provider registration and platform settings", () => {
  const s = useTestSystem();

  it("records the registration of a cuid and emits ProviderRegistered", async () => {
    const { exchange } = s.platformContracts;
    const receipt = await (await exchange.init_permission_provider(CLIENT_ID, "game-2", 100, s.stranger.address)).wait();
    const event = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "ProviderRegistered");
    expect(event?.args.cuidKey).toBe(id("game-2"));
    expect(event?.args.cuid).toBe("game-2");
    expect(event?.args.clientId).toBe(CLIENT_ID);
    expect(event?.args.ownerAddr).toBe(s.stranger.address);
    expect(event?.args.releasePer).toBe(100n);
    const provider = await exchange.get_provider("game-2");
    expect(provider.clientId).toBe(CLIENT_ID);
    expect(provider.ownerAddr).toBe(s.stranger.address);
    expect(provider.releasePer).toBe(100n);
    expect(provider.registered).toBe(true);
  });

  it("lets one provider register several cuids, each with its own terms", async () => {
    const { exchange } = s.platformContracts;
    await (await exchange.init_permission_provider(CLIENT_ID, "game-2", 0, s.providerWallet.address)).wait();
    expect((await exchange.get_provider(CUID)).releasePer).toBe(BigInt(RELEASE_PER));
    expect((await exchange.get_provider("game-2")).releasePer).toBe(0n);
    expect((await exchange.get_provider("game-2")).clientId).toBe(CLIENT_ID);
  });

  it("reports an unknown cuid as unregistered", async () => {
    const provider = await s.platformContracts.exchange.get_provider("nope");
    expect(provider.registered).toBe(false);
    expect(provider.ownerAddr).toBe(ZeroAddress);
  });

  it("refuses registration by anyone but the operator or the owner with NotOperator", async () => {
    await expectRevert(s.providerContracts.exchange.init_permission_provider(CLIENT_ID, "game-2", 10, s.providerWallet.address), "NotOperator", [
      s.providerWallet.address,
    ]);
  });

  it("refuses an empty or over-long client id with InvalidClientId", async () => {
    const { exchange } = s.platformContracts;
    await expectRevert(exchange.init_permission_provider("", "game-2", 10, s.providerWallet.address), "InvalidClientId");
    await expectRevert(exchange.init_permission_provider("c".repeat(129), "game-2", 10, s.providerWallet.address), "InvalidClientId");
    await (await exchange.init_permission_provider("c".repeat(128), "game-2", 10, s.providerWallet.address)).wait();
  });

  it("refuses an empty or over-long cuid with InvalidCuid", async () => {
    const { exchange } = s.platformContracts;
    await expectRevert(exchange.init_permission_provider(CLIENT_ID, "", 10, s.providerWallet.address), "InvalidCuid");
    await expectRevert(exchange.init_permission_provider(CLIENT_ID, "g".repeat(65), 10, s.providerWallet.address), "InvalidCuid");
    await (await exchange.init_permission_provider(CLIENT_ID, "g".repeat(64), 10, s.providerWallet.address)).wait();
  });

  it("refuses release_per above 100 with ReleasePerOutOfRange", async () => {
    await expectRevert(s.platformContracts.exchange.init_permission_provider(CLIENT_ID, "game-2", 101, s.providerWallet.address), "ReleasePerOutOfRange", [
      101n,
    ]);
  });

  it("refuses a zero owner_addr with ZeroAddress", async () => {
    await expectRevert(s.platformContracts.exchange.init_permission_provider(CLIENT_ID, "game-2", 10, ZeroAddress), "ZeroAddress");
  });

  it("refuses registering a cuid twice with CuidAlreadyRegistered", async () => {
    await expectRevert(s.platformContracts.exchange.init_permission_provider("other-client", CUID, 10, s.stranger.address), "CuidAlreadyRegistered", [CUID]);
  });

  it("updates a cuid's revenue wallet and ratio and emits ProviderUpdated", async () => {
    const { exchange } = s.platformContracts;
    const receipt = await (await exchange.update_provider(CUID, 55, s.stranger.address)).wait();
    const event = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "ProviderUpdated");
    expect(event?.args.ownerAddr).toBe(s.stranger.address);
    expect(event?.args.releasePer).toBe(55n);
    const provider = await exchange.get_provider(CUID);
    expect([provider.ownerAddr, provider.releasePer, provider.clientId]).toEqual([s.stranger.address, 55n, CLIENT_ID]);
  });

  it("refuses update_provider from non-platform, for unknown cuids, bad ratios and zero wallets", async () => {
    await expectRevert(s.providerContracts.exchange.update_provider(CUID, 10, s.providerWallet.address), "NotPlatform");
    await expectRevert(s.platformContracts.exchange.update_provider("nope", 10, s.providerWallet.address), "UnknownCuid", ["nope"]);
    await expectRevert(s.platformContracts.exchange.update_provider(CUID, 101, s.providerWallet.address), "ReleasePerOutOfRange");
    await expectRevert(s.platformContracts.exchange.update_provider(CUID, 10, ZeroAddress), "ZeroAddress");
  });

  it("keeps _cuid_releaseTokenEnabled false by default and lets the platform switch it, with an event", async () => {
    const { exchange } = s.platformContracts;
    expect(await exchange._cuid_releaseTokenEnabled(CUID)).toBe(false);
    const receipt = await (await exchange.set_release_enabled(CUID, true)).wait();
    const event = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "ReleaseEnabledChanged");
    expect([event?.args.cuid, event?.args.enabled]).toEqual([CUID, true]);
    expect(await exchange._cuid_releaseTokenEnabled(CUID)).toBe(true);
    await (await exchange.set_release_enabled(CUID, false)).wait();
    expect(await exchange._cuid_releaseTokenEnabled(CUID)).toBe(false);
  });

  it("refuses set_release_enabled from the provider (NotOperator) and for unknown cuids (UnknownCuid)", async () => {
    await expectRevert(s.providerContracts.exchange.set_release_enabled(CUID, true), "NotOperator");
    await expectRevert(s.platformContracts.exchange.set_release_enabled("nope", true), "UnknownCuid");
  });

  it("changes the treasury with TreasuryChanged and refuses zero or non-platform callers", async () => {
    const { exchange } = s.platformContracts;
    const receipt = await (await exchange.set_treasury(s.stranger.address)).wait();
    const event = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "TreasuryChanged");
    expect([event?.args.previousTreasury, event?.args.newTreasury]).toEqual([s.platform.address, s.stranger.address]);
    expect(await exchange.treasury()).toBe(s.stranger.address);
    await expectRevert(exchange.set_treasury(ZeroAddress), "ZeroAddress");
    await expectRevert(s.strangerContracts.exchange.set_treasury(s.stranger.address), "NotPlatform");
  });

  it("exposes its token, fee and owner", async () => {
    const { exchange } = s.platformContracts;
    expect(await exchange.xotn()).toBe(s.addresses.xotn);
    expect(await exchange.PLATFORM_FEE_PERCENT()).toBe(15n);
    expect(await exchange.owner()).toBe(s.platform.address);
  });

  it("refuses deployment with a zero token or treasury", async () => {
    const factory = new ContractFactory(contentTokenExchangeAbi, contentTokenExchangeBytecode, s.platform);
    const platform = s.platform.address;
    await expectRevert(factory.deploy(ZeroAddress, platform, platform, platform), "ZeroAddress");
    await expectRevert(factory.deploy(s.addresses.xotn, ZeroAddress, platform, platform), "ZeroAddress");
    await expectRevert(factory.deploy(s.addresses.xotn, platform, ZeroAddress, platform), "ZeroAddress");
    await expectRevert(factory.deploy(s.addresses.xotn, platform, platform, ZeroAddress), "ZeroAddress");
  });

  it("hands ownership over in two steps (e.g. to a multisig)", async () => {
    const { exchange } = s.platformContracts;
    await (await exchange.transferOwnership(s.stranger.address)).wait();
    expect(await exchange.pendingOwner()).toBe(s.stranger.address);
    await (await s.strangerContracts.exchange.acceptOwnership()).wait();
    await expectRevert(exchange.set_treasury(s.holder.address), "NotPlatform", [s.platform.address]);
    await (await s.strangerContracts.exchange.set_treasury(s.holder.address)).wait();
    // The old owner stays the operator until the new owner appoints another one.
    await (await exchange.set_release_enabled(CUID, true)).wait();
    await (await s.strangerContracts.exchange.set_operator(s.holder.address)).wait();
    await expectRevert(exchange.set_release_enabled(CUID, false), "NotOperator", [s.platform.address]);
  });
});
