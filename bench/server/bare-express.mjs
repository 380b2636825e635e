// Child process: the baseline, a bare Express 5 JSON route. With the argument "classes" the HTTP server
// is built as the Slotgate server builds it (appPrototypes(): requests and responses born with the app's
// prototypes, so Express swaps none), the stricter baseline.
import { createServer } from "node:http";
import express from "express";
import { appPrototypes } from "@slotgate/server";
import { settle } from "./settle.mjs";

const app = express();
app.disable("x-powered-by");
app.get("/bare", (_req, res) => {
  res.json({ success: true, valid: true });
});
let server;
if (process.argv[2] === "classes") {
  const prototypes = appPrototypes();
  prototypes.adopt(app);
  server = createServer({ IncomingMessage: prototypes.IncomingMessage, ServerResponse: prototypes.ServerResponse }, app);
} else server = createServer(app);
server.listen(0, "127.0.0.1", () => {
  settle();
  process.send({ type: "ready", url: `http://127.0.0.1:${server.address().port}` });
});
process.on("message", (msg) => {
  if (msg.type === "stop") server.close(() => process.exit(0));
});
