import type { MockFixtures } from "./fixtures.js";
import { parseXotn } from "./handlers/content-tokens.js";
import { hashPassword } from "./passwords.js";
import type { ClientFixture } from "./fixtures.js";
import type { MockState } from "./state.js";

/** Seeds the fixtures into a fresh state. */
export async function seed(state: MockState, fixtures: MockFixtures, now: () => number): Promise<void> {
  const createdAt = new Date(now()).toISOString();
  const { developer, endUser, provider, slot } = fixtures;
  state.devUsers.set(developer.uuid, { uuid: developer.uuid, email: developer.email, password: await hashPassword(developer.password) });
  const addClient = (client: ClientFixture) => {
    const { redirect_uri: _main, ...rest } = client;
    state.clients.set(client.client_id, { ...rest, redirect_uris: [...client.redirect_uris], owner_uuid: developer.uuid, created_at: createdAt });
  };
  addClient(fixtures.webClient);
  addClient(fixtures.backendClient);
  addClient(fixtures.gameClient);
  state.endUsers.set(endUser.user_id, {
    user_id: endUser.user_id,
    email: endUser.email,
    nickname: endUser.nickname,
    password: await hashPassword(endUser.password),
  });
  state.reserveUserId(endUser.user_id);
  state.providers.set(provider.cuid, {
    client_id: provider.client_id,
    cuid: provider.cuid,
    release_per: provider.release_per,
    owner_addr: provider.owner_addr,
    release_enabled: false,
  });
  const owner = state.clients.get(provider.client_id);
  if (owner) owner.aes = { key: provider.aes_key, iv: provider.aes_iv };
  const wallet = state.slotFor(slot.client_id, slot.user_id, slot.address);
  wallet.xotn = parseXotn(slot.xotn);
  // The seeded wallet is the end user's first slot of the provider's cuid: slot 0, active.
  state.cuidSlots.set(`${provider.cuid}|0`, {
    cuid: provider.cuid,
    meta_idx: 0,
    wallet: wallet.address.toLowerCase(),
    user_id: slot.user_id,
    active: true,
    tr_cnt: 0,
  });
  state.slotCounters.set(provider.cuid, 1);
}
