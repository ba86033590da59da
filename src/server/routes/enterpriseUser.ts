/**
 * /api/front/hgdarc/enterpriseuser/*: the enterprise record (docs/enterprises.md). Every call needs
 * a session (901); the owner reaches only their own enterprise, an operator reads any (get and the
 * table). Another user's id is 404, as if it did not exist.
 */
import { Hono } from 'hono';
import {
  enterpriseAddBody,
  enterpriseDraftBody,
  enterpriseEditBody,
  enterpriseEditFieldBody,
  enterpriseFieldValue,
  enterpriseGetQuery,
  enterpriseIdBody,
} from '../../lib/schemas/enterprise.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireSession } from '../middleware/session.ts';
import {
  addEnterprise,
  deleteEnterprise,
  editEnterprise,
  editEnterpriseField,
  saveEnterpriseDraft,
  submitForReview,
  type EnterpriseChanges,
} from '../services/enterpriseRecords.ts';
import { enterprisesPage } from '../services/enterpriseTable.ts';
import {
  enterpriseById,
  enterpriseData,
  enterpriseDataById,
  isOperator,
  ownEnterpriseOrFail,
  ownedEnterprise,
} from '../services/enterpriseView.ts';
import { readTableRequest } from '../table/antTable.ts';
import { describeCall } from '../openapi/describe.ts';
import { tableCallBody } from '../../lib/schemas/table.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { check, validate } from '../validate.ts';
import { enterpriseActor } from './enterpriseActor.ts';

export function createEnterpriseUserRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config, objects } = deps;
  const routes = new Hono<AppEnv>();

  /** Without id: the user's own (404 when none). With id: the owner's, or any for an operator. */
  routes.get(
    '/get',
    describeCall({ summary: 'The enterprise record with its files', query: enterpriseGetQuery }),
    requireSession,
    async (c) => {
      const { id } = await validate(c, enterpriseGetQuery, 'query');
      const user = c.var.user;
      if (id === undefined)
        return ok(c, await enterpriseData(db, await ownEnterpriseOrFail(db, user.id), localeOf(c), user.id));
      const row = isOperator(user) ? await enterpriseById(db, id) : await ownedEnterprise(db, user.id, id);
      return ok(c, await enterpriseData(db, row, localeOf(c), user.id));
    },
  );

  routes.post(
    '/add',
    describeCall({
      summary: "Create the caller's enterprise record and submit it for certification",
      body: enterpriseAddBody,
    }),
    requireSession,
    async (c) => {
      const record = await validate(c, enterpriseAddBody, 'body');
      const id = await addEnterprise(db, enterpriseActor(c, config), record);
      return ok(c, await enterpriseDataById(db, id, localeOf(c), c.var.user.id), 'enterprise.saved');
    },
  );

  routes.post(
    '/edit',
    describeCall({ summary: 'Edit the enterprise record and submit it again', body: enterpriseEditBody }),
    requireSession,
    async (c) => {
      const { id, ...record } = await validate(c, enterpriseEditBody, 'body');
      await editEnterprise(db, enterpriseActor(c, config), id, record);
      return ok(c, await enterpriseDataById(db, id, localeOf(c), c.var.user.id), 'enterprise.saved');
    },
  );

  routes.post(
    '/temporarySave',
    describeCall({ summary: 'Save the enterprise form as a draft', body: enterpriseDraftBody }),
    requireSession,
    async (c) => {
      const draft = await validate(c, enterpriseDraftBody, 'body');
      const id = await saveEnterpriseDraft(db, enterpriseActor(c, config), draft);
      return ok(c, await enterpriseDataById(db, id, localeOf(c), c.var.user.id), 'enterprise.draftSaved');
    },
  );

  routes.post(
    '/editfield',
    describeCall({ summary: 'Change one field of a certified enterprise', body: enterpriseEditFieldBody }),
    requireSession,
    async (c) => {
      const { id, field, value } = await validate(c, enterpriseEditFieldBody, 'body');
      // The value by its field's own rule, so the message names that field.
      const parsed = await check(c, enterpriseFieldValue(field), { [field]: value });
      const checked = (parsed as EnterpriseChanges)[field];
      await editEnterpriseField(db, enterpriseActor(c, config), id, field, checked);
      return ok(c, await enterpriseDataById(db, id, localeOf(c), c.var.user.id), 'enterprise.saved');
    },
  );

  /** Submit for certificate review. */
  routes.post(
    '/editAuthInfo',
    describeCall({ summary: 'Reopen a certified enterprise for editing', body: enterpriseIdBody }),
    requireSession,
    async (c) => {
      const { id } = await validate(c, enterpriseIdBody, 'body');
      await submitForReview(db, enterpriseActor(c, config), id);
      return ok(c, await enterpriseDataById(db, id, localeOf(c), c.var.user.id), 'enterprise.submitted');
    },
  );

  routes.post(
    '/del',
    describeCall({ summary: 'Delete the enterprise record', body: enterpriseIdBody }),
    requireSession,
    async (c) => {
      const { id } = await validate(c, enterpriseIdBody, 'body');
      await deleteEnterprise(db, enterpriseActor(c, config), id, objects);
      return ok(c, {}, 'enterprise.deleted');
    },
  );

  /** The user's own enterprise; every enterprise for an operator (the review queue: filter authStatus [1]). */
  routes.post(
    '/getAntTable',
    describeCall({ summary: "Enterprises as a table (the owner's own; an operator's all)", body: tableCallBody }),
    requireSession,
    async (c) => {
      const request = await readTableRequest(c);
      return ok(c, await enterprisesPage(db, c.var.user, request));
    },
  );

  return routes;
}
