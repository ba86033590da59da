/** /api/front/requirement/submitRequirement: the requirement form (spec §7; DOMAIN.md, Requirement). */
import { Hono } from 'hono';
import { submitRequirementBody } from '../../lib/schemas/requirement.ts';
import { ok } from '../envelope.ts';
import { clientIp } from '../request.ts';
import { contentStore } from '../services/contentStore.ts';
import { submitRequirement } from '../services/requirements.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppDeps, AppEnv } from '../types.ts';
import { validate } from '../validate.ts';

export function createRequirementRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();

  routes.post(
    '/submitRequirement',
    describeCall({ summary: 'Submit the requirement form', body: submitRequirementBody }),
    async (c) => {
      const input = await validate(c, submitRequirementBody, 'body');
      const result = await submitRequirement(db, contentStore.current(), input, clientIp(c, config));
      return ok(c, result, 'content.requirementSubmitted');
    },
  );

  return routes;
}
