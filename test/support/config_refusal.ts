// The message of the ConfigError a start with these environment variables stops with.

import { ConfigError } from '../../src/base/errors.js';
import { loadConfig } from '../../src/config/config.js';

export function configRefusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
  throw new Error('expected a ConfigError');
}
