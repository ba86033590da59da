-- The searchable names of a settlement row (order number, set name, enterprise name), copied onto
-- settlement_results so the settlement table's keyword search reads that table alone instead of
-- joining every row of the months to orders and enterprises (docs/partner.md, Benchmark). The
-- database keeps the copies true, so no writer can forget them: a row trigger fills them whenever
-- a row is written with an order or enterprise, and the renaming of an order or an enterprise is
-- carried to its rows. Added nullable, filled, then made NOT NULL (drizzle-kit's plain
-- `ADD COLUMN … NOT NULL` fails on a table that has rows).
ALTER TABLE "settlement_results" ADD COLUMN "order_no" varchar(20);--> statement-breakpoint
ALTER TABLE "settlement_results" ADD COLUMN "set_name" varchar(60);--> statement-breakpoint
ALTER TABLE "settlement_results" ADD COLUMN "enterprise_name" varchar(100);--> statement-breakpoint
UPDATE "settlement_results" s
SET order_no = o.order_no, set_name = o.set_name, enterprise_name = e.enterprise_name
FROM orders o, enterprises e
WHERE o.id = s.order_id AND e.id = s.enterprise_id;--> statement-breakpoint
ALTER TABLE "settlement_results" ALTER COLUMN "order_no" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_results" ALTER COLUMN "set_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_results" ALTER COLUMN "enterprise_name" SET NOT NULL;--> statement-breakpoint
-- Whatever a writer sends for the names is replaced by the order's and the enterprise's: one source
-- of truth. It runs on every write of a name too (the renames below included: they read the same).
CREATE FUNCTION settlement_results_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One statement, not one per table: a bulk insert pays this for every row.
  SELECT o.order_no, o.set_name, e.enterprise_name INTO NEW.order_no, NEW.set_name, NEW.enterprise_name
  FROM orders o, enterprises e WHERE o.id = NEW.order_id AND e.id = NEW.enterprise_id;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER settlement_results_names BEFORE INSERT OR UPDATE OF order_id, enterprise_id, order_no, set_name, enterprise_name ON settlement_results
  FOR EACH ROW EXECUTE FUNCTION settlement_results_names();--> statement-breakpoint
CREATE FUNCTION orders_settlement_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE settlement_results SET order_no = NEW.order_no, set_name = NEW.set_name WHERE order_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_settlement_names AFTER UPDATE OF order_no, set_name ON orders
  FOR EACH ROW WHEN (OLD.order_no IS DISTINCT FROM NEW.order_no OR OLD.set_name IS DISTINCT FROM NEW.set_name)
  EXECUTE FUNCTION orders_settlement_names();--> statement-breakpoint
CREATE FUNCTION enterprises_settlement_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE settlement_results SET enterprise_name = NEW.enterprise_name WHERE enterprise_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER enterprises_settlement_names AFTER UPDATE OF enterprise_name ON enterprises
  FOR EACH ROW WHEN (OLD.enterprise_name IS DISTINCT FROM NEW.enterprise_name)
  EXECUTE FUNCTION enterprises_settlement_names();
