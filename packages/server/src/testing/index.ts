/**
 * `@slotgate/server/testing`: a throwaway reference server for integrators' own integration tests.
 *
 * @packageDocumentation
 */
export { type ChromiumLaunchOptions, chromiumLaunchOptions } from "./chromium-options.js";
export { freeLoopbackPort } from "./free-port.js";
export { type ReferenceServer, type ReferenceServerOptions, startReferenceServer } from "./reference-server.js";
export { type RegisteredWebClient, type RegisterWebClientOptions, registerWebClient } from "./register-client.js";
export { type DevMail, readMailbox, type SignUpPlayerOptions, signInPlayer, signUpPlayer, waitForMailedCode } from "./sign-up-player.js";
export { type LocalIdentityProvider, type LocalIdentityProviderOptions, type LocalIdpAccount, startLocalIdentityProvider } from "./local-identity-provider.js";
