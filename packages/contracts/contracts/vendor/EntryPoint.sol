// SPDX-License-Identifier: GPL-3.0
pragma solidity 0.8.26;

// Pulls the unmodified ERC-4337 v0.6 EntryPoint (@account-abstraction/contracts 0.6.0)
// into this compilation so Hardhat emits its artifact. Nothing is changed here.
import "@account-abstraction/contracts/core/EntryPoint.sol";
