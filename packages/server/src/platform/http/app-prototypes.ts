import { IncomingMessage, ServerResponse } from "node:http";
import type { Express } from "express";

/** The request and response classes of an HTTP server, and how to make them an Express app's own. */
export interface AppPrototypes {
  /** Pass to `http.createServer({ IncomingMessage, ServerResponse })`. */
  IncomingMessage: typeof IncomingMessage;
  /** Pass to `http.createServer({ IncomingMessage, ServerResponse })`. */
  ServerResponse: typeof ServerResponse;
  /**
   * Makes the two classes' prototypes `app.request` and `app.response`: they take the place (and the
   * own properties) of the prototypes Express made, so every request and response the server
   * creates from now on already has the prototype Express would give it.
   */
  adopt(app: Express): void;
}

/**
 * Request and response classes whose instances are born with the Express app's prototypes, so that
 * Express's per-request `Object.setPrototypeOf(req, app.request)` (and the same for `res`) finds the
 * prototype already in place and changes nothing.
 *
 * Why: changing an object's prototype after it was created gives it a map V8 cannot share, and under
 * load this became a process-wide slow state: the property stores of Node's own `ServerResponse`
 * constructor missing their inline caches, new maps every request, megamorphic loads. Measured on
 * these machines (docs/decisions/server.md, "HTTP server classes"): bare Express on
 * Node 20 serves 8.0 k req/s with the swap and 36.6 k with these classes; on Node 24 a Slotgate
 * process that had served its first requests ran a trivial route at 12 k req/s against 42 k in a
 * fresh one. Node's `http.createServer` takes the classes it constructs for this purpose.
 *
 * Requests that arrive before {@link AppPrototypes.adopt} are handled as Express always handles
 * them (their prototype is swapped). The app must not be mounted in another Express app (a mounted
 * app swaps prototypes anyway).
 *
 * @example
 * ```ts
 * const prototypes = appPrototypes();
 * const server = createServer({ IncomingMessage: prototypes.IncomingMessage, ServerResponse: prototypes.ServerResponse });
 * const app = express();
 * prototypes.adopt(app);
 * server.on("request", app);
 * ```
 */
export function appPrototypes(): AppPrototypes {
  // Classes, not function constructors with a reassigned `prototype` built with `Reflect.construct`:
  // that form halved Node 20's validate rate (4.5 k req/s against 9.1 k with the swap, 13.6 k with
  // these classes), though it measured higher than the classes on Node 22-26 (docs/decisions/server.md).
  class SlotgateIncomingMessage extends IncomingMessage {}
  class SlotgateServerResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  return {
    IncomingMessage: SlotgateIncomingMessage,
    ServerResponse: SlotgateServerResponse,
    adopt(app: Express): void {
      app.request = takePlace(SlotgateIncomingMessage.prototype, app.request);
      app.response = takePlace(SlotgateServerResponse.prototype, app.response);
    },
  };
}

/** Gives `proto` the prototype and the own properties of `replaced` (Express's `app.request` or `app.response`). */
function takePlace<T extends object>(proto: object, replaced: T): T {
  Object.setPrototypeOf(proto, Object.getPrototypeOf(replaced));
  Object.defineProperties(proto, Object.getOwnPropertyDescriptors(replaced));
  return proto as T;
}
