// What `node dist/main.js` runs: how operators started Signet until the code moved into its
// layers' folders (dist/app/main.js). It still starts the production server, and says once, at
// start, the command to use instead (docs/decisions.md, 60). `npm run build` writes dist/main.js,
// which imports this file (scripts/write_entry_before_layers.mjs).
import { serve } from './serve.js';

export const ENTRY_BEFORE_LAYERS_WARNING =
  '`node dist/main.js` is the old way to start Signet and will be removed in 3.0.0: start it with `signet serve` (`npx signet serve`, or `node bin/signet.js serve` in the image)';

serve({ startWarning: ENTRY_BEFORE_LAYERS_WARNING });
