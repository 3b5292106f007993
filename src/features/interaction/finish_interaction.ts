// Records an interaction's result on the Interaction already read in this request, as the
// engine's interactionResult would after reading it again: one store write, no second read.
import type { Interaction, InteractionResults } from 'oidc-provider';

export async function finishInteraction(details: Interaction, result: InteractionResults): Promise<string> {
  details.result = result;
  // The engine's own clock (seconds): the record keeps the expiry it was created with.
  await details.save(details.exp - Math.floor(Date.now() / 1000));
  return details.returnTo;
}
