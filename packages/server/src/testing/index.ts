/**
 * `@slotgate/server/testing`: a throwaway reference server for integrators' own integration tests.
 *
 * @packageDocumentation
 */
export { freeLoopbackPort } from "./free-port.js";
export { type ReferenceServer, type ReferenceServerOptions, startReferenceServer } from "./reference-server.js";
export { type DevMail, readMailbox, type SignUpPlayerOptions, signInPlayer, signUpPlayer, waitForMailedCode } from "./sign-up-player.js";
export { type LocalIdentityProvider, type LocalIdentityProviderOptions, type LocalIdpAccount, startLocalIdentityProvider } from "./local-identity-provider.js";
