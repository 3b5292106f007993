// The message of the ConfigError a start with these environment variables stops with.
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';

export function configRefusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
  throw new Error('expected a ConfigError');
}
