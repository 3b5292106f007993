// GET /openapi.json: the document of the route table it is part of.
import { z } from 'zod';
import { anyone } from './authenticators.js';
import type { OpenApiDocument } from './openapi.js';
import { type AnyRoute, route } from './route.js';

export function openApiRoute(document: () => OpenApiDocument): AnyRoute {
  return route({
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    tag: 'Health',
    auth: anyone,
    // The same for everyone and changed only by a deployment.
    cache: { publicMaxAgeSeconds: 300 },
    responses: { 200: { description: 'The OpenAPI 3.1 document of Signet’s own routes', schema: z.looseObject({ openapi: z.literal('3.1.0') }) } },
    handle: async () => ({ body: document() }),
  });
}
