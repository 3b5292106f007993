// The claim topics Signet knows (name ↔ number, words for the consent page), which issuers
// are trusted for each, as ONCHAINID's trusted-issuers registry would say, and the trust
// framework each trusted issuer's checks of a topic follow (for `verified_claims`).
import { type Address, getAddress } from 'viem';
import type { Config } from '../../config/config.js';
import { claimIdOf } from './claim_reader.js';

export type ClaimTopic = { name: string; topic: number; description: string };

export type ClaimTopics = {
  all: readonly ClaimTopic[];
  byName(name: string): ClaimTopic | undefined;
  byNumber(topic: number): ClaimTopic | undefined;
  /** The OIDC scope that asks for claims of this topic: claim:<name>. */
  scopeOf(topic: ClaimTopic): string;
  /** The topic a claim:<name> scope names, if it is one. */
  topicOfScope(scope: string): ClaimTopic | undefined;
  isTrusted(issuer: Address, topic: number): boolean;
  /** The trust framework a trusted issuer's checks of a topic follow (claims.trustedIssuers[].trustFrameworks), if configured. */
  trustFramework(issuer: Address, topic: number): string | undefined;
  /** The topics some trusted issuer has a trust framework for: where verified data can come from. */
  verifiedTopics: readonly number[];
  /** Every configured trust framework, once each. */
  trustFrameworks: readonly string[];
  /** The trusted issuer and topic a claim id stands for (claimId = keccak256(issuer, topic)), read without the chain. */
  trustedClaim(claimId: string): { issuer: Address; topic: ClaimTopic } | undefined;
};

export const CLAIM_SCOPE_PREFIX = 'claim:';

/**
 * The topics, with the issuers trusted on one chain: an issuer is trusted for a topic on the
 * chain its entry names (an entry without one, with one chain configured, is that chain's).
 */
export function createClaimTopics(claims: Config['claims'], chainId?: number): ClaimTopics {
  const byName = new Map(claims.topics.map((topic) => [topic.name, topic]));
  const byNumber = new Map(claims.topics.map((topic) => [topic.topic, topic]));
  const trusted = new Set<string>();
  const byClaimId = new Map<string, { issuer: Address; topic: ClaimTopic }>();
  const frameworks = new Map<string, string>();
  for (const issuer of claims.trustedIssuers) {
    if (chainId !== undefined && issuer.chain_id !== undefined && issuer.chain_id !== chainId) continue;
    for (const name of issuer.topics) {
      const topic = byName.get(name)!;
      trusted.add(`${getAddress(issuer.address)}:${topic.topic}`);
      byClaimId.set(claimIdOf(issuer.address, topic.topic).toLowerCase(), { issuer: getAddress(issuer.address), topic });
      const framework = issuer.trustFrameworks?.[name];
      if (framework) frameworks.set(`${getAddress(issuer.address)}:${topic.topic}`, framework);
    }
  }
  const verifiedTopics = [...new Set([...frameworks.keys()].map((key) => Number(key.split(':')[1])))];
  return {
    all: claims.topics,
    byName: (name) => byName.get(name),
    byNumber: (topic) => byNumber.get(topic),
    scopeOf: (topic) => `${CLAIM_SCOPE_PREFIX}${topic.name}`,
    topicOfScope: (scope) => (scope.startsWith(CLAIM_SCOPE_PREFIX) ? byName.get(scope.slice(CLAIM_SCOPE_PREFIX.length)) : undefined),
    isTrusted: (issuer, topic) => trusted.has(`${getAddress(issuer)}:${topic}`),
    trustFramework: (issuer, topic) => frameworks.get(`${getAddress(issuer)}:${topic}`),
    verifiedTopics,
    trustFrameworks: [...new Set(frameworks.values())],
    trustedClaim: (claimId) => byClaimId.get(claimId.toLowerCase()),
  };
}
