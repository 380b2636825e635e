/**
 * `@slotgate/server/testing`: a throwaway reference server for integrators' own integration tests.
 *
 * @packageDocumentation
 */
export { freeLoopbackPort } from "./free-port.js";
export { type ReferenceServer, type ReferenceServerOptions, startReferenceServer } from "./reference-server.js";
