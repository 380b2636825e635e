import { MarketplaceConfigError, loadMarketplaceConfig } from "./config.js";
import { createMarketplace } from "./create-marketplace.js";

let config: ReturnType<typeof loadMarketplaceConfig>;
try {
  config = loadMarketplaceConfig(process.env);
} catch (err) {
  if (!(err instanceof MarketplaceConfigError)) throw err;
  process.stderr.write(`configuration error: ${err.message}\n`);
  process.exit(2);
}

const market = await createMarketplace(config);
for (const warning of market.warnings) process.stderr.write(`warning: development default in use: ${warning}\n`);
const server = market.app.listen(config.port, config.host, () => {
  process.stderr.write(
    `Slotgate reference marketplace on ${config.publicUrl} (service ${config.slotgateUrl}, webhooks at ${config.publicUrl}/webhooks/slotgate)\n`,
  );
});

function stop(): void {
  server.close(() => {
    void market.close().finally(() => process.exit(0));
  });
}
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
