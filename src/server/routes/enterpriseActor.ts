/** The acting user, address and language of an enterprise call, as the services take them. */
import { localeOf } from '../envelope.ts';
import type { Config } from '../config.ts';
import { clientIp } from '../request.ts';
import type { EnterpriseActor } from '../services/enterpriseView.ts';
import type { SessionUser } from '../types.ts';
import type { AnyContext } from '../envelope.ts';

export function enterpriseActor(c: AnyContext, config: Config): EnterpriseActor {
  return { user: c.var.user as SessionUser, ip: clientIp(c, config), locale: localeOf(c) };
}
