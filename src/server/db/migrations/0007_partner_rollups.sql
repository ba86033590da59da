CREATE TABLE "partner_contracts" (
	"partner_id" integer NOT NULL,
	"contract_start" date NOT NULL,
	"contract_months" integer NOT NULL,
	"running" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_enterprise_monthly" (
	"partner_id" integer NOT NULL,
	"month" date NOT NULL,
	"registered" integer NOT NULL,
	"certified" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_order_monthly" (
	"partner_id" integer NOT NULL,
	"month" date NOT NULL,
	"product_id" varchar(8) NOT NULL,
	"area_code" char(6) NOT NULL,
	"orders" integer NOT NULL,
	"contracted" numeric(20, 3) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "partner_contracts_key" ON "partner_contracts" USING btree ("partner_id","contract_start","contract_months");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_enterprise_monthly_key" ON "partner_enterprise_monthly" USING btree ("partner_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_order_monthly_key" ON "partner_order_monthly" USING btree ("partner_id","month","product_id","area_code");
--> statement-breakpoint
-- The analysis roll-ups of orders (docs/partner.md, Analysis), kept exact by every write: statement-level
-- triggers with transition tables, so a bulk insert adds its groups once instead of once per row, and an
-- update that changes nothing counted (a touched updated_at) writes nothing (HAVING … <> 0).
CREATE FUNCTION partner_orders_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO partner_order_monthly AS r (partner_id, month, product_id, area_code, orders, contracted)
    SELECT partner_id, month, product_id, area_code, sum(n), sum(c) FROM (
    SELECT partner_id, date_trunc('month', (created_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS month, product_id, area_code, 1 AS n,
      (CASE WHEN status IN (20, 30, 40) THEN estimated_consumption * contract_months ELSE 0 END) AS c
    FROM new_rows WHERE partner_id IS NOT NULL
    ) d GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(c) <> 0
    ON CONFLICT (partner_id, month, product_id, area_code)
      DO UPDATE SET orders = r.orders + excluded.orders, contracted = r.contracted + excluded.contracted;
    INSERT INTO partner_contracts AS r (partner_id, contract_start, contract_months, running)
    SELECT partner_id, contract_start, contract_months, sum(n) FROM (
    SELECT partner_id, contract_start, contract_months, 1 AS n
    FROM new_rows WHERE partner_id IS NOT NULL AND status IN (30, 40)
    ) d GROUP BY 1, 2, 3 HAVING sum(n) <> 0
    ON CONFLICT (partner_id, contract_start, contract_months) DO UPDATE SET running = r.running + excluded.running;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO partner_order_monthly AS r (partner_id, month, product_id, area_code, orders, contracted)
    SELECT partner_id, month, product_id, area_code, sum(n), sum(c) FROM (
    SELECT partner_id, date_trunc('month', (created_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS month, product_id, area_code, -1 AS n,
      -(CASE WHEN status IN (20, 30, 40) THEN estimated_consumption * contract_months ELSE 0 END) AS c
    FROM old_rows WHERE partner_id IS NOT NULL
    UNION ALL
    SELECT partner_id, date_trunc('month', (created_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS month, product_id, area_code, 1 AS n,
      (CASE WHEN status IN (20, 30, 40) THEN estimated_consumption * contract_months ELSE 0 END) AS c
    FROM new_rows WHERE partner_id IS NOT NULL
    ) d GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(c) <> 0
    ON CONFLICT (partner_id, month, product_id, area_code)
      DO UPDATE SET orders = r.orders + excluded.orders, contracted = r.contracted + excluded.contracted;
    INSERT INTO partner_contracts AS r (partner_id, contract_start, contract_months, running)
    SELECT partner_id, contract_start, contract_months, sum(n) FROM (
    SELECT partner_id, contract_start, contract_months, -1 AS n
    FROM old_rows WHERE partner_id IS NOT NULL AND status IN (30, 40)
    UNION ALL
    SELECT partner_id, contract_start, contract_months, 1 AS n
    FROM new_rows WHERE partner_id IS NOT NULL AND status IN (30, 40)
    ) d GROUP BY 1, 2, 3 HAVING sum(n) <> 0
    ON CONFLICT (partner_id, contract_start, contract_months) DO UPDATE SET running = r.running + excluded.running;
  ELSE
    INSERT INTO partner_order_monthly AS r (partner_id, month, product_id, area_code, orders, contracted)
    SELECT partner_id, month, product_id, area_code, sum(n), sum(c) FROM (
    SELECT partner_id, date_trunc('month', (created_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS month, product_id, area_code, -1 AS n,
      -(CASE WHEN status IN (20, 30, 40) THEN estimated_consumption * contract_months ELSE 0 END) AS c
    FROM old_rows WHERE partner_id IS NOT NULL
    ) d GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(c) <> 0
    ON CONFLICT (partner_id, month, product_id, area_code)
      DO UPDATE SET orders = r.orders + excluded.orders, contracted = r.contracted + excluded.contracted;
    INSERT INTO partner_contracts AS r (partner_id, contract_start, contract_months, running)
    SELECT partner_id, contract_start, contract_months, sum(n) FROM (
    SELECT partner_id, contract_start, contract_months, -1 AS n
    FROM old_rows WHERE partner_id IS NOT NULL AND status IN (30, 40)
    ) d GROUP BY 1, 2, 3 HAVING sum(n) <> 0
    ON CONFLICT (partner_id, contract_start, contract_months) DO UPDATE SET running = r.running + excluded.running;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER orders_partner_rollup_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_orders_rollup();
--> statement-breakpoint
CREATE TRIGGER orders_partner_rollup_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_orders_rollup();
--> statement-breakpoint
CREATE TRIGGER orders_partner_rollup_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_orders_rollup();
--> statement-breakpoint
-- The analysis roll-ups of enterprises (docs/partner.md, Analysis), kept exact by every write: statement-level
-- triggers with transition tables, so a bulk insert adds its groups once instead of once per row, and an
-- update that changes nothing counted (a touched updated_at) writes nothing (HAVING … <> 0).
CREATE FUNCTION partner_enterprises_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO partner_enterprise_monthly AS r (partner_id, month, registered, certified)
    SELECT partner_id, month, sum(r), sum(c) FROM (
    SELECT partner_id, date_trunc('month', (created_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS month, 1 AS r, 0 AS c
    FROM new_rows WHERE partner_id IS NOT NULL
    UNION ALL
    SELECT partner_id, date_trunc('month', (reviewed_at AT TIME ZONE 'UTC') + interval '8 hours')::date, 0, 1
    FROM new_rows WHERE partner_id IS NOT NULL AND auth_status = 2 AND reviewed_at IS NOT NULL
    ) d GROUP BY 1, 2 HAVING sum(r) <> 0 OR sum(c) <> 0
    ON CONFLICT (partner_id, month) DO UPDATE SET registered = r.registered + excluded.registered, certified = r.certified + excluded.certified;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO partner_enterprise_monthly AS r (partner_id, month, registered, certified)
    SELECT partner_id, month, sum(r), sum(c) FROM (
    SELECT partner_id, date_trunc('month', (created_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS month, -1 AS r, 0 AS c
    FROM old_rows WHERE partner_id IS NOT NULL
    UNION ALL
    SELECT partner_id, date_trunc('month', (reviewed_at AT TIME ZONE 'UTC') + interval '8 hours')::date, 0, -1
    FROM old_rows WHERE partner_id IS NOT NULL AND auth_status = 2 AND reviewed_at IS NOT NULL
    UNION ALL
    SELECT partner_id, date_trunc('month', (created_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS month, 1 AS r, 0 AS c
    FROM new_rows WHERE partner_id IS NOT NULL
    UNION ALL
    SELECT partner_id, date_trunc('month', (reviewed_at AT TIME ZONE 'UTC') + interval '8 hours')::date, 0, 1
    FROM new_rows WHERE partner_id IS NOT NULL AND auth_status = 2 AND reviewed_at IS NOT NULL
    ) d GROUP BY 1, 2 HAVING sum(r) <> 0 OR sum(c) <> 0
    ON CONFLICT (partner_id, month) DO UPDATE SET registered = r.registered + excluded.registered, certified = r.certified + excluded.certified;
  ELSE
    INSERT INTO partner_enterprise_monthly AS r (partner_id, month, registered, certified)
    SELECT partner_id, month, sum(r), sum(c) FROM (
    SELECT partner_id, date_trunc('month', (created_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS month, -1 AS r, 0 AS c
    FROM old_rows WHERE partner_id IS NOT NULL
    UNION ALL
    SELECT partner_id, date_trunc('month', (reviewed_at AT TIME ZONE 'UTC') + interval '8 hours')::date, 0, -1
    FROM old_rows WHERE partner_id IS NOT NULL AND auth_status = 2 AND reviewed_at IS NOT NULL
    ) d GROUP BY 1, 2 HAVING sum(r) <> 0 OR sum(c) <> 0
    ON CONFLICT (partner_id, month) DO UPDATE SET registered = r.registered + excluded.registered, certified = r.certified + excluded.certified;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER enterprises_partner_rollup_insert AFTER INSERT ON enterprises REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_enterprises_rollup();
--> statement-breakpoint
CREATE TRIGGER enterprises_partner_rollup_update AFTER UPDATE ON enterprises REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_enterprises_rollup();
--> statement-breakpoint
CREATE TRIGGER enterprises_partner_rollup_delete AFTER DELETE ON enterprises REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_enterprises_rollup();
--> statement-breakpoint
-- Existing rows, once.
INSERT INTO partner_order_monthly (partner_id, month, product_id, area_code, orders, contracted)
SELECT partner_id, month, product_id, area_code, sum(n), sum(c) FROM (
SELECT partner_id, date_trunc('month', (created_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS month, product_id, area_code, 1 AS n,
      (CASE WHEN status IN (20, 30, 40) THEN estimated_consumption * contract_months ELSE 0 END) AS c
    FROM orders WHERE partner_id IS NOT NULL
) d GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO partner_contracts (partner_id, contract_start, contract_months, running)
SELECT partner_id, contract_start, contract_months, sum(n) FROM (
SELECT partner_id, contract_start, contract_months, 1 AS n
    FROM orders WHERE partner_id IS NOT NULL AND status IN (30, 40)
) d GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO partner_enterprise_monthly (partner_id, month, registered, certified)
SELECT partner_id, month, sum(r), sum(c) FROM (
SELECT partner_id, date_trunc('month', (created_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS month, 1 AS r, 0 AS c
    FROM enterprises WHERE partner_id IS NOT NULL
    UNION ALL
    SELECT partner_id, date_trunc('month', (reviewed_at AT TIME ZONE 'UTC') + interval '8 hours')::date, 0, 1
    FROM enterprises WHERE partner_id IS NOT NULL AND auth_status = 2 AND reviewed_at IS NOT NULL
) d GROUP BY 1, 2;
