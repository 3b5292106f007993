// The request and answer forms of the API-key admin API, for the route table and /openapi.json.
import { z } from 'zod';
import { dateTime } from '../../http/schemas.js';

export const servicePath = z.object({ serviceId: z.string().min(1).max(128) });
export const keyPath = servicePath.extend({ keyId: z.string().min(1).max(64) });

export const createBody = z.object({
  label: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
});

export const apiKey = z
  .object({
    id: z.string(),
    prefix: z.string().meta({ description: 'sgk_<id>: how the key shows in logs and listings' }),
    service: z.string(),
    label: z.string().nullable(),
    created_at: dateTime,
    last_used_at: dateTime.optional(),
    revoked_at: dateTime.optional(),
    replaced_by: z.string().optional().meta({ description: 'The key that replaced this one in a rotation' }),
  })
  .meta({ id: 'ApiKey' });

export const newApiKey = z
  .object({
    id: z.string(),
    key: z.string().meta({ description: 'sgk_<id>_<secret>: shown this once, never again' }),
    prefix: z.string(),
    service: z.string(),
    label: z.string().nullable(),
    created_at: dateTime,
  })
  .meta({ id: 'NewApiKey' });

export const apiKeyList = z.object({ api_keys: z.array(apiKey) });
