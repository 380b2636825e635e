import { createDemoApp } from "./create-demo-app.js";
import { DemoConfigError, loadDemoConfig } from "./config.js";

let config: ReturnType<typeof loadDemoConfig>;
try {
  config = loadDemoConfig(process.env);
} catch (err) {
  if (!(err instanceof DemoConfigError)) throw err;
  process.stderr.write(`configuration error: ${err.message}\n`);
  process.exit(2);
}

const { app, slotgate } = createDemoApp(config);
const server = app.listen(config.port, config.host, () => {
  process.stderr.write(`Slotgate demo web app on ${config.publicUrl} (service ${config.slotgateUrl})\n`);
});

function stop(): void {
  void slotgate.shutdown().finally(() => server.close(() => process.exit(0)));
}
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
