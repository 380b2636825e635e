// Hardhat 2 configuration for @slotgate/contracts.
//
// Offline by design: Hardhat normally downloads solc from binaries.soliditylang.org.
// The subtask override below hands it the npm `solc` package's soljson.js instead,
// so `hardhat compile` needs nothing beyond the npm registry (see TOOLCHAIN.md).
const path = require("node:path");
const { subtask } = require("hardhat/config");
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require("hardhat/builtin-tasks/task-names");

const solcPackageJson = require.resolve("solc/package.json");
const SOLC_VERSION = require(solcPackageJson).version;

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args, _hre, runSuper) => {
  if (args.solcVersion !== SOLC_VERSION) {
    return runSuper(args);
  }
  return {
    compilerPath: path.join(path.dirname(solcPackageJson), "soljson.js"),
    isSolcJs: true,
    version: SOLC_VERSION,
    longVersion: require("solc").version(),
  };
});

/** @type {import("hardhat/config").HardhatUserConfig} */
module.exports = {
  solidity: {
    version: SOLC_VERSION,
    settings: {
      // paris: no PUSH0/MCOPY, so the same bytecode runs on every EVM chain the
      // server may be pointed at (see docs/decisions/contracts.md).
      evmVersion: "paris",
      optimizer: { enabled: true, runs: 1000000 },
    },
  },
  paths: {
    sources: "./contracts",
    artifacts: "./artifacts",
    cache: "./cache",
    tests: "./test",
  },
  networks: {
    hardhat: {
      // The in-process chain used by tests and by the reference server's embedded mode.
      chainId: 31337,
    },
  },
};
