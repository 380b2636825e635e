// SPDX-License-Identifier: GPL-3.0
pragma solidity 0.8.26;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {BaseAccount} from "@account-abstraction/contracts/core/BaseAccount.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {UserOperation} from "@account-abstraction/contracts/interfaces/UserOperation.sol";
import {TokenCallbackHandler} from "@account-abstraction/contracts/samples/callback/TokenCallbackHandler.sol";
import {IContentTokenExchange} from "../interfaces/IContentTokenExchange.sol";

/**
 * @title SlotgateAccount
 * @notice The ERC-4337 v0.6 wallet of Slotgate users and slots: one owner EOA signs UserOperations
 *         (the SimpleAccount v0.6 scheme), `changeOwner` rotates that key while the address and
 *         everything it holds stay (spec 4.10 recovery, and the hand-over of a sold slot), and nothing
 *         can replace its code. A slot wallet (every wallet but a user's W_SALT wallet) makes only the
 *         calls a slot needs, so nothing its owner sets can outlive the owner
 *         (docs/decisions/marketplace.md).
 * @dev Deployed behind an ERC1967Proxy by {SlotgateAccountFactory}. Unlike SimpleAccount v0.6 it is not
 *      UUPS: it has no upgrade function, no DELEGATECALL and no SELFDESTRUCT, so the proxy's
 *      implementation slot never changes after the factory set it. After `changeOwner` the factory's
 *      `getAddress(newOwner, salt)` no longer names this wallet: keep the address, not the owner.
 */
contract SlotgateAccount is BaseAccount, TokenCallbackHandler, Initializable {
    using ECDSA for bytes32;

    /// @notice The owner EOA whose signature validates this wallet's UserOperations.
    address public owner;
    /// @notice True for a slot wallet: `execute` and `executeBatch` make only the calls a slot needs.
    bool public isSlotWallet;

    IEntryPoint private immutable _entryPoint;
    /// @notice The factory that made this implementation; the only caller of `restrictToSlotCalls`.
    address public immutable factory;
    /// @notice The XOTN token: a slot wallet may approve only the exchange on it.
    address public immutable xotn;
    /// @notice The content-token exchange and slot registry a slot wallet deals with.
    address public immutable exchange;

    /**
     * @notice The wallet was initialised.
     * @param entryPoint the EntryPoint it trusts
     * @param owner its first owner EOA
     */
    event AccountInitialized(IEntryPoint indexed entryPoint, address indexed owner);
    /**
     * @notice The owner key of this wallet was replaced.
     * @param previousOwner the owner that authorized the change
     * @param newOwner the owner from now on
     */
    event OwnerChanged(address indexed previousOwner, address indexed newOwner);
    /// @notice The wallet became a slot wallet: from now on it makes only the calls a slot needs.
    event RestrictedToSlotCalls();

    /// @notice The caller is neither the EntryPoint nor the owner EOA (nor, for `changeOwner`, the wallet itself).
    /// @param caller the rejected `msg.sender`
    error NotOwnerOrEntryPoint(address caller);
    /// @notice The caller is neither the owner EOA nor the wallet itself.
    /// @param caller the rejected `msg.sender`
    error NotOwner(address caller);
    /// @notice The new owner is zero, the current owner, or the wallet itself.
    /// @param newOwner the rejected value
    error InvalidNewOwner(address newOwner);
    /// @notice `executeBatch` got a different number of targets and calls.
    /// @param targets the number of targets
    /// @param calls the number of calls
    error InvalidBatch(uint256 targets, uint256 calls);
    /// @notice A slot wallet may not make this call (see {isSlotWallet}).
    /// @param target the called contract
    /// @param selector the call's function selector (zero for calldata shorter than four bytes)
    error SlotCallNotAllowed(address target, bytes4 selector);
    /// @notice Only the factory that made this implementation may call this.
    /// @param caller the rejected `msg.sender`
    error NotFactory(address caller);

    /**
     * @notice Deploys the implementation used by every wallet proxy (the factory deploys it).
     * @param anEntryPoint the ERC-4337 v0.6 EntryPoint this wallet trusts
     * @param xotn_ the XOTN token
     * @param exchange_ the content-token exchange
     */
    constructor(IEntryPoint anEntryPoint, address xotn_, address exchange_) {
        _entryPoint = anEntryPoint;
        factory = msg.sender;
        xotn = xotn_;
        exchange = exchange_;
        _disableInitializers();
    }

    /// @notice Accepts ETH (gas deposits are made with `addDeposit`).
    receive() external payable {}

    /// @inheritdoc BaseAccount
    function entryPoint() public view override returns (IEntryPoint) {
        return _entryPoint;
    }

    /**
     * @notice Sets the first owner; the factory calls it once, in the proxy's constructor.
     * @param anOwner the owner EOA
     */
    function initialize(address anOwner) external initializer {
        owner = anOwner;
        emit AccountInitialized(_entryPoint, anOwner);
    }

    /**
     * @notice Makes this wallet a slot wallet, for good. Only the factory calls it, in the transaction
     *         that deploys the wallet, for every salt but the user wallet's (W_SALT).
     */
    function restrictToSlotCalls() external {
        if (msg.sender != factory) revert NotFactory(msg.sender);
        isSlotWallet = true;
        emit RestrictedToSlotCalls();
    }

    /**
     * @notice Makes one call, from the EntryPoint (a UserOperation the owner signed) or directly from
     *         the owner EOA. A slot wallet makes only the calls a slot needs (see {isSlotWallet}).
     * @param dest the called address
     * @param value wei sent with it
     * @param func its calldata
     */
    function execute(address dest, uint256 value, bytes calldata func) external {
        _requireFromEntryPointOrOwner();
        if (isSlotWallet) _requireSlotCall(dest, value, func);
        _call(dest, value, func);
    }

    /**
     * @notice Makes several calls in order, all or none, from the EntryPoint or the owner EOA. A slot
     *         wallet makes only the calls a slot needs.
     * @param dest the called addresses
     * @param func their calldata, one per address
     */
    function executeBatch(address[] calldata dest, bytes[] calldata func) external {
        _requireFromEntryPointOrOwner();
        if (dest.length != func.length) revert InvalidBatch(dest.length, func.length);
        bool slot = isSlotWallet;
        for (uint256 i = 0; i < dest.length; i++) {
            if (slot) _requireSlotCall(dest[i], 0, func[i]);
            _call(dest[i], 0, func[i]);
        }
    }

    /**
     * @notice Replaces the owner EOA. Call it through the EntryPoint with a UserOperation signed by
     *         the current owner (callData = `changeOwner(newOwner)` or `execute(self, 0, changeOwner(...))`),
     *         or directly from the current owner.
     * @dev From then on only `newOwner`'s signature validates; the old key gets `AA24 signature error`.
     * @param newOwner the new owner EOA; not zero, not the current owner, not this wallet
     */
    function changeOwner(address newOwner) external {
        if (msg.sender != address(_entryPoint) && msg.sender != owner && msg.sender != address(this)) {
            revert NotOwnerOrEntryPoint(msg.sender);
        }
        address previousOwner = owner;
        if (newOwner == address(0) || newOwner == previousOwner || newOwner == address(this)) {
            revert InvalidNewOwner(newOwner);
        }
        owner = newOwner;
        emit OwnerChanged(previousOwner, newOwner);
    }

    /**
     * @notice This wallet's deposit in the EntryPoint (what it pays gas from when no paymaster does).
     * @return the deposit in wei
     */
    function getDeposit() external view returns (uint256) {
        return _entryPoint.balanceOf(address(this));
    }

    /// @notice Adds the sent wei to this wallet's EntryPoint deposit.
    function addDeposit() external payable {
        _entryPoint.depositTo{value: msg.value}(address(this));
    }

    /**
     * @notice Withdraws from this wallet's EntryPoint deposit. Owner EOA only.
     * @param withdrawAddress where the wei goes
     * @param amount wei to withdraw
     */
    function withdrawDepositTo(address payable withdrawAddress, uint256 amount) external {
        if (msg.sender != owner && msg.sender != address(this)) revert NotOwner(msg.sender);
        _entryPoint.withdrawTo(withdrawAddress, amount);
    }

    /// @dev The owner's EIP-191 signature of the UserOperation hash (SimpleAccount v0.6).
    function _validateSignature(UserOperation calldata userOp, bytes32 userOpHash)
        internal
        view
        override
        returns (uint256 validationData)
    {
        if (owner != userOpHash.toEthSignedMessageHash().recover(userOp.signature)) return SIG_VALIDATION_FAILED;
        return 0;
    }

    function _requireFromEntryPointOrOwner() private view {
        if (msg.sender != address(_entryPoint) && msg.sender != owner) revert NotOwnerOrEntryPoint(msg.sender);
    }

    /**
     * @dev The calls a slot needs, and nothing that can outlive its owner: a plain ETH transfer; an
     *      ERC-20 `transfer` (spec 4.5; it moves tokens once and grants nothing); XOTN `approve` of the
     *      exchange only; the exchange's `buy_content_token`, `approve_purchases` (consents the exchange
     *      ends at every owner change) and `change_slot_owner` (the sale); and `changeOwner` on itself.
     *      No call carries ETH but a plain transfer. Everything else reverts: other approvals,
     *      `increaseAllowance`, EntryPoint stake and nonce calls, any other contract's functions.
     */
    function _requireSlotCall(address dest, uint256 value, bytes calldata func) private view {
        if (func.length == 0) return;
        bytes4 selector = func.length < 4 ? bytes4(0) : bytes4(func[:4]);
        if (value == 0) {
            if (selector == IERC20.transfer.selector) return;
            if (dest == xotn) {
                if (selector == IERC20.approve.selector && func.length >= 36 && abi.decode(func[4:36], (address)) == exchange) return;
            } else if (dest == exchange) {
                if (
                    selector == IContentTokenExchange.buy_content_token.selector
                        || selector == IContentTokenExchange.approve_purchases.selector
                        || selector == IContentTokenExchange.change_slot_owner.selector
                ) return;
            } else if (dest == address(this)) {
                if (selector == this.changeOwner.selector) return;
            }
        }
        revert SlotCallNotAllowed(dest, selector);
    }

    function _call(address target, uint256 value, bytes calldata data) private {
        (bool success, bytes memory result) = target.call{value: value}(data);
        if (!success) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }
}
