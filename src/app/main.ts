// The file `signet serve` runs, as a script of its own: `node dist/app/main.js` starts the
// production server the same way (the process tests and other builds' comparisons start it so).
import { serve } from './serve.js';

serve();
