// SPDX-License-Identifier: GPL-3.0
pragma solidity 0.8.26;

import {BasePaymaster} from "@account-abstraction/contracts/core/BasePaymaster.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {UserOperation, UserOperationLib} from "@account-abstraction/contracts/interfaces/UserOperation.sol";
import {_packValidationData} from "@account-abstraction/contracts/core/Helpers.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/**
 * @title SlotgatePaymaster
 * @notice The platform's gas sponsor: the ERC-4337 v0.6 VerifyingPaymaster (same `paymasterAndData`
 *         layout) with NatSpec, stable custom errors and a hash over the operation's fields. It pays
 *         for a UserOperation when the platform's signer signed it with a validity window.
 * @dev paymasterAndData = paymaster address (20 bytes) ++ abi.encode(uint48 validUntil, uint48 validAfter)
 *      (64 bytes) ++ signature (65 bytes). The signature is an EIP-191 personal signature of
 *      `getHash(userOp, validUntil, validAfter)`. The hash is taken over the operation's decoded fields
 *      (the byte fields as their keccak256), never over its raw calldata encoding, so two encodings of
 *      one operation cannot differ in what was signed. The EntryPoint rejects the operation after
 *      validUntil ("AA32 paymaster expired or not due").
 *      The signer is immutable (storage reads during validation would need a staked paymaster under
 *      ERC-4337 bundler rules); rotate it by deploying a new paymaster.
 */
contract SlotgatePaymaster is BasePaymaster {
    using UserOperationLib for UserOperation;

    /// @notice The platform key whose signature makes this paymaster sponsor an operation.
    address public immutable verifyingSigner;

    /// @notice Per-sender counter folded into the hash, so one signature sponsors one operation.
    mapping(address sender => uint256 nonce) public senderNonce;

    uint256 private constant VALID_TIMESTAMP_OFFSET = 20;
    uint256 private constant SIGNATURE_OFFSET = 84;

    /// @notice The caller is not the paymaster owner.
    /// @param caller the rejected `msg.sender`
    error NotOwner(address caller);
    /// @notice The signature in paymasterAndData is not 64 or 65 bytes long.
    /// @param length the length found
    error InvalidSignatureLength(uint256 length);
    /// @notice A zero address was given for the signer.
    error ZeroAddress();

    /**
     * @notice Deploys the paymaster; the deployer becomes its owner (withdrawals, stake).
     * @param anEntryPoint the EntryPoint it serves
     * @param aVerifyingSigner the platform signer
     */
    constructor(IEntryPoint anEntryPoint, address aVerifyingSigner) BasePaymaster(anEntryPoint) {
        if (aVerifyingSigner == address(0)) revert ZeroAddress();
        verifyingSigner = aVerifyingSigner;
    }

    /**
     * @notice The hash the platform signer signs (EIP-191) for `userOp` and the window.
     * @dev keccak256(abi.encode(keccak256(abi.encode(sender, nonce, keccak256(initCode),
     *      keccak256(callData), callGasLimit, verificationGasLimit, preVerificationGas, maxFeePerGas,
     *      maxPriorityFeePerGas)), chainid, this paymaster, senderNonce[sender], validUntil, validAfter)):
     *      every field of the operation but paymasterAndData and the signature, plus the chain, this
     *      paymaster, the sender's paymaster nonce and the window.
     * @param userOp the operation
     * @param validUntil last second (inclusive) the sponsorship is valid; 0 means no expiry
     * @param validAfter first second the sponsorship is valid
     * @return the hash to sign
     */
    function getHash(UserOperation calldata userOp, uint48 validUntil, uint48 validAfter)
        public
        view
        returns (bytes32)
    {
        address sender = userOp.getSender();
        return keccak256(
            abi.encode(_fieldsHash(userOp), block.chainid, address(this), senderNonce[sender], validUntil, validAfter)
        );
    }

    /**
     * @notice Splits paymasterAndData into the window and the signature.
     * @param paymasterAndData the full field (address ++ window ++ signature)
     * @return validUntil the end of the window
     * @return validAfter the start of the window
     * @return signature the signer's signature
     */
    function parsePaymasterAndData(bytes calldata paymasterAndData)
        public
        pure
        returns (uint48 validUntil, uint48 validAfter, bytes calldata signature)
    {
        (validUntil, validAfter) =
            abi.decode(paymasterAndData[VALID_TIMESTAMP_OFFSET:SIGNATURE_OFFSET], (uint48, uint48));
        signature = paymasterAndData[SIGNATURE_OFFSET:];
    }

    /// @dev Verifies the platform signature; a wrong signer returns SIG_VALIDATION_FAILED (AA34), never reverts.
    function _validatePaymasterUserOp(UserOperation calldata userOp, bytes32, uint256)
        internal
        override
        returns (bytes memory context, uint256 validationData)
    {
        (uint48 validUntil, uint48 validAfter, bytes calldata signature) =
            parsePaymasterAndData(userOp.paymasterAndData);
        if (signature.length != 64 && signature.length != 65) revert InvalidSignatureLength(signature.length);
        bytes32 hash = ECDSA.toEthSignedMessageHash(getHash(userOp, validUntil, validAfter));
        senderNonce[userOp.getSender()]++;
        (address recovered, ECDSA.RecoverError err) = ECDSA.tryRecover(hash, signature);
        bool failed = err != ECDSA.RecoverError.NoError || recovered != verifyingSigner;
        return ("", _packValidationData(failed, validUntil, validAfter));
    }

    /// @dev Replaces Ownable's string revert with the stable custom error `NotOwner`.
    function _checkOwner() internal view override {
        if (owner() != msg.sender) revert NotOwner(msg.sender);
    }

    /// @dev keccak256 of the operation's fields that the platform signs (byte fields hashed).
    function _fieldsHash(UserOperation calldata userOp) private pure returns (bytes32) {
        return keccak256(
            abi.encode(
                userOp.sender,
                userOp.nonce,
                keccak256(userOp.initCode),
                keccak256(userOp.callData),
                userOp.callGasLimit,
                userOp.verificationGasLimit,
                userOp.preVerificationGas,
                userOp.maxFeePerGas,
                userOp.maxPriorityFeePerGas
            )
        );
    }
}
