// A node-oidc-provider adapter on Redis (ioredis): every model a JSON string under `oidc:<Model>:<id>` with its
// expiry; a grant's members listed under `oidc:grant:<grantId>` so that revoking the grant (a replayed code)
// deletes them; `consume` marks the stored payload consumed in one atomic step (a Lua script). The persistent
// store of the benchmark's like-for-like anchor (issue 34): the code is written, read, consumed and its grant
// read over the network, as Slotgate's exchange reads and consumes its code in PostgreSQL.
import Redis from "ioredis";

const GRANTABLE = new Set(["AccessToken", "AuthorizationCode", "RefreshToken", "DeviceCode", "BackchannelAuthenticationRequest"]);
const CONSUME = `local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local o = cjson.decode(v)
o['consumed'] = tonumber(ARGV[1])
redis.call('SET', KEYS[1], cjson.encode(o), 'KEEPTTL')
return 1`;

export function redisAdapter(url) {
  const client = new Redis(url, { lazyConnect: false, enableAutoPipelining: true });
  client.defineCommand("oidcConsume", { numberOfKeys: 1, lua: CONSUME });
  class RedisAdapter {
    constructor(name) {
      this.name = name;
    }
    key(id) {
      return `oidc:${this.name}:${id}`;
    }
    async upsert(id, payload, expiresIn) {
      const key = this.key(id);
      const multi = client.multi();
      if (expiresIn) multi.set(key, JSON.stringify(payload), "EX", expiresIn);
      else multi.set(key, JSON.stringify(payload));
      if (GRANTABLE.has(this.name) && payload.grantId) {
        const grantKey = `oidc:grant:${payload.grantId}`;
        multi.rpush(grantKey, key);
        if (expiresIn) multi.expire(grantKey, expiresIn, "GT");
      }
      if (payload.uid) multi.set(`oidc:uid:${payload.uid}`, id, ...(expiresIn ? ["EX", expiresIn] : []));
      await multi.exec();
    }
    async find(id) {
      const data = await client.get(this.key(id));
      return data ? JSON.parse(data) : undefined;
    }
    async findByUid(uid) {
      const id = await client.get(`oidc:uid:${uid}`);
      return id ? this.find(id) : undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id) {
      await client.oidcConsume(this.key(id), Math.floor(Date.now() / 1000));
    }
    async destroy(id) {
      await client.del(this.key(id));
    }
    async revokeByGrantId(grantId) {
      const grantKey = `oidc:grant:${grantId}`;
      const keys = await client.lrange(grantKey, 0, -1);
      await client.del(...keys, grantKey);
    }
  }
  return { Adapter: RedisAdapter, client };
}
