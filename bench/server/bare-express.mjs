// Child process: the baseline, a bare Express 5 JSON route.
import express from "express";
import { settle } from "./settle.mjs";

const app = express();
app.disable("x-powered-by");
app.get("/bare", (_req, res) => {
  res.json({ success: true, valid: true });
});
const server = app.listen(0, "127.0.0.1", () => {
  settle();
  process.send({ type: "ready", url: `http://127.0.0.1:${server.address().port}` });
});
process.on("message", (msg) => {
  if (msg.type === "stop") server.close(() => process.exit(0));
});
