// The claim topics Signet knows (name ↔ number, words for the consent page) and which issuers
// are trusted for each, as ONCHAINID's trusted-issuers registry would say.
import { type Address, getAddress } from 'viem';
import type { Config } from '../config.js';
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
  /** The trusted issuer and topic a claim id stands for (claimId = keccak256(issuer, topic)), read without the chain. */
  trustedClaim(claimId: string): { issuer: Address; topic: ClaimTopic } | undefined;
};

export const CLAIM_SCOPE_PREFIX = 'claim:';

export function createClaimTopics(claims: Config['claims']): ClaimTopics {
  const byName = new Map(claims.topics.map((topic) => [topic.name, topic]));
  const byNumber = new Map(claims.topics.map((topic) => [topic.topic, topic]));
  const trusted = new Set<string>();
  const byClaimId = new Map<string, { issuer: Address; topic: ClaimTopic }>();
  for (const issuer of claims.trustedIssuers) {
    for (const name of issuer.topics) {
      const topic = byName.get(name)!;
      trusted.add(`${getAddress(issuer.address)}:${topic.topic}`);
      byClaimId.set(claimIdOf(issuer.address, topic.topic).toLowerCase(), { issuer: getAddress(issuer.address), topic });
    }
  }
  return {
    all: claims.topics,
    byName: (name) => byName.get(name),
    byNumber: (topic) => byNumber.get(topic),
    scopeOf: (topic) => `${CLAIM_SCOPE_PREFIX}${topic.name}`,
    topicOfScope: (scope) => (scope.startsWith(CLAIM_SCOPE_PREFIX) ? byName.get(scope.slice(CLAIM_SCOPE_PREFIX.length)) : undefined),
    isTrusted: (issuer, topic) => trusted.has(`${getAddress(issuer)}:${topic}`),
    trustedClaim: (claimId) => byClaimId.get(claimId.toLowerCase()),
  };
}
