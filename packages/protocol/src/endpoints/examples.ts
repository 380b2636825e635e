/** Values the endpoint examples share: well-formed, made up, never a real secret. */
export const EXAMPLE = {
  userId: "7",
  userUuid: 7,
  clientId: "game-client",
  cuid: "game-1",
  address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  otherAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  pinHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  pinSalt: "5a3e0d6f1c2b4a7988e1d0c3b2a49f8e7d6c5b4a39281706f5e4d3c2b1a09f8e",
  keyShare: "2b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfe",
  redirectUri: "https://game.example/callback",
} as const;
