// SPDX-License-Identifier: MIT
// Never deployed: Signet sends its creation code with each eth_call (a deployless read,
// src/chain/claims_bundle.ts), so one round trip reads an identity's claims of some topics
// and/or by id, their data, and each issuer's word on them (ClaimIssuer.isClaimValid).
// Compiled with solc 0.8.28, optimizer 200 runs, evmVersion paris:
// `node scripts/compile_claims_reader.mjs` writes src/chain/claims_reader_bytecode.ts.
pragma solidity 0.8.28;

contract ClaimsReader {
    struct Claim {
        bytes32 id;
        bool found;
        uint256 topic;
        uint256 scheme;
        address issuer;
        bytes signature;
        bytes data;
        string uri;
        bool valid;
    }

    bytes4 private constant GET_IDS = bytes4(keccak256("getClaimIdsByTopic(uint256)"));
    bytes4 private constant GET_CLAIM = bytes4(keccak256("getClaim(bytes32)"));
    bytes4 private constant GET_IDENTITY = bytes4(keccak256("getIdentity(address)"));
    bytes4 private constant GET_WALLETS = bytes4(keccak256("getWallets(address)"));
    bytes4 private constant KEY_HAS_PURPOSE = bytes4(keccak256("keyHasPurpose(bytes32,uint256)"));
    uint256 private constant ACTION = 2;
    bytes4 private constant IS_VALID = bytes4(keccak256("isClaimValid(address,uint256,bytes,bytes)"));

    /**
     * The claims of `topics` and of `ids`, with their issuers' word.
     * isIdentity: false when no contract is at `identity` or it refuses the ERC-735 reads.
     * perTopic[i]: how many of `claims` (in order, first) came from topics[i]; the claims of
     * `ids` follow. An issuer's isClaimValid runs with at most `validityGas`; a revert, no
     * code or an answer other than true is false.
     */
    function read(address identity, uint256[] calldata topics, bytes32[] calldata ids, uint256 validityGas)
        external
        view
        returns (bool isIdentity, uint256[] memory perTopic, Claim[] memory claims)
    {
        return readOf(identity, topics, ids, validityGas);
    }

    /**
     * The identity an IdFactory links to `wallet` (zero: none) and its claims of `topics`, as
     * `read` answers them. The factory is the caller's own contract: a failed read of it reverts.
     */
    function readOfWallet(address factory, address wallet, uint256[] calldata topics, uint256 validityGas)
        external
        view
        returns (address identity, bool isIdentity, uint256[] memory perTopic, Claim[] memory claims)
    {
        (bool ok, bytes memory answer) = factory.staticcall(abi.encodeWithSelector(GET_IDENTITY, wallet));
        require(ok && answer.length >= 32, "IdFactory.getIdentity failed");
        identity = abi.decode(answer, (address));
        perTopic = new uint256[](topics.length);
        if (identity == address(0)) return (identity, false, perTopic, claims);
        (isIdentity, perTopic, claims) = readOf(identity, topics, new bytes32[](0), validityGas);
    }

    /**
     * Whether the IdFactory knows `identity`, whether `wallet` holds a MANAGEMENT or ACTION key
     * on it (linked: 1 yes, 0 no, 2 the identity refused or is no contract) and, when both hold,
     * its claims of `topics` as `read` answers them. A failed read of the factory reverts.
     */
    function readOfLinked(address factory, address identity, address wallet, uint256[] calldata topics, uint256 validityGas)
        external
        view
        returns (bool known, uint8 linked, bool isIdentity, uint256[] memory perTopic, Claim[] memory claims)
    {
        (bool ok, bytes memory answer) = factory.staticcall(abi.encodeWithSelector(GET_WALLETS, identity));
        require(ok && answer.length >= 64, "IdFactory.getWallets failed");
        known = abi.decode(answer, (address[])).length > 0;
        perTopic = new uint256[](topics.length);
        linked = 2;
        if (identity.code.length > 0) {
            (ok, answer) = identity.staticcall(abi.encodeWithSelector(KEY_HAS_PURPOSE, keccak256(abi.encode(wallet)), ACTION));
            if (ok && answer.length >= 32) {
                uint256 word = abi.decode(answer, (uint256));
                linked = word == 1 ? 1 : word == 0 ? 0 : 2;
            }
        }
        if (!known || linked != 1) return (known, linked, false, perTopic, claims);
        (isIdentity, perTopic, claims) = readOf(identity, topics, new bytes32[](0), validityGas);
    }

    function readOf(address identity, uint256[] calldata topics, bytes32[] memory ids, uint256 validityGas)
        private
        view
        returns (bool isIdentity, uint256[] memory perTopic, Claim[] memory claims)
    {
        perTopic = new uint256[](topics.length);
        if (identity.code.length == 0) return (false, perTopic, claims);
        bytes32[][] memory byTopic = new bytes32[][](topics.length);
        uint256 total = ids.length;
        for (uint256 i = 0; i < topics.length; i++) {
            (bool ok, bytes memory answer) = identity.staticcall(abi.encodeWithSelector(GET_IDS, topics[i]));
            if (!ok || answer.length < 64) return (false, perTopic, claims);
            byTopic[i] = abi.decode(answer, (bytes32[]));
            perTopic[i] = byTopic[i].length;
            total += byTopic[i].length;
        }
        claims = new Claim[](total);
        uint256 n = 0;
        for (uint256 i = 0; i < topics.length; i++) {
            for (uint256 j = 0; j < byTopic[i].length; j++) {
                bool ok;
                (ok, claims[n]) = readClaim(identity, byTopic[i][j], validityGas);
                if (!ok) return (false, perTopic, new Claim[](0));
                n++;
            }
        }
        for (uint256 k = 0; k < ids.length; k++) {
            bool ok;
            (ok, claims[n]) = readClaim(identity, ids[k], validityGas);
            if (!ok) return (false, perTopic, new Claim[](0));
            n++;
        }
        isIdentity = true;
    }

    function readClaim(address identity, bytes32 id, uint256 validityGas) private view returns (bool ok, Claim memory claim) {
        bytes memory answer;
        (ok, answer) = identity.staticcall(abi.encodeWithSelector(GET_CLAIM, id));
        claim.id = id;
        if (!ok || answer.length < 192) return (false, claim);
        (claim.topic, claim.scheme, claim.issuer, claim.signature, claim.data, claim.uri) =
            abi.decode(answer, (uint256, uint256, address, bytes, bytes, string));
        claim.found = claim.issuer != address(0);
        if (!claim.found || claim.issuer.code.length == 0) return (true, claim);
        (bool answered, bytes memory word) = claim.issuer.staticcall{gas: validityGas}(
            abi.encodeWithSelector(IS_VALID, identity, claim.topic, claim.signature, claim.data)
        );
        claim.valid = answered && word.length >= 32 && abi.decode(word, (uint256)) == 1;
    }
}
