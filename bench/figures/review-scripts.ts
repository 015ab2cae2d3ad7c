// Change scripts for the review figure: a realistic mix of DDL and DML for
// each engine (tables with their indexes and comments, added columns, batched
// INSERTs, UPDATEs and DELETEs with WHERE clauses, a few SELECTs), repeated
// with varying names until the script reaches the wanted size. About 210
// bytes per statement: a 2 MiB script holds about 10,000 statements.
import type { Engine } from "../../shared/inventory/engine/target.ts";

type Template = (n: number, engine: Engine) => string;

const TEMPLATES: readonly Template[] = [
  (n, engine) =>
    `CREATE TABLE orders_${n} (id bigint NOT NULL PRIMARY KEY, customer_id bigint NOT NULL, status varchar(20) NOT NULL DEFAULT 'new', ` +
    `amount numeric(12,2) NOT NULL, currency char(3) NOT NULL DEFAULT 'EUR', shipping_address varchar(255), note text, ` +
    `created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, updated_at timestamp NULL)${engine === "MYSQL" ? " ENGINE=InnoDB COMMENT 'orders'" : ""}`,
  (n, engine) =>
    engine === "MYSQL"
      ? `ALTER TABLE orders_${n} ADD COLUMN shipped_at timestamp NULL, ADD COLUMN tracking_code varchar(64) NULL, ALGORITHM=INPLACE, LOCK=NONE`
      : `COMMENT ON TABLE orders_${n} IS 'Orders of batch ${n}, imported from the legacy order system during the migration'`,
  (n) => `CREATE INDEX idx_orders_${n}_customer ON orders_${n} (customer_id, created_at)`,
  (n) =>
    `INSERT INTO orders_${n} (id, customer_id, status, amount, created_at) VALUES (${n}, ${n * 7}, 'new', ${n}.50, '2024-01-01 10:00:00'), ` +
    `(${n + 1}, ${n * 7 + 1}, 'paid', 12.25, '2024-01-02 11:30:00'), (${n + 2}, ${n * 7 + 2}, 'new', 99.90, '2024-01-03 09:15:00')`,
  (n) =>
    `UPDATE orders_${n} SET status = 'shipped', amount = amount * 1.05, note = 'batch ${n} shipped on time by the regional warehouse', ` +
    `updated_at = '2024-02-03 04:05:06' WHERE id = ${n} AND status = 'paid' AND currency = 'EUR'`,
  (n) => `ALTER TABLE customers ADD COLUMN loyalty_points_${n} integer NOT NULL DEFAULT 0, ADD COLUMN loyalty_tier_${n} varchar(16) NOT NULL DEFAULT 'basic'`,
  (n) =>
    `DELETE FROM order_events WHERE order_id IN (SELECT id FROM orders_${n} WHERE status = 'cancelled' AND updated_at < '2023-06-30') ` +
    `AND created_at < '2023-01-01' AND kind <> 'audit'`,
  (n) =>
    `INSERT INTO audit_log (event, actor, payload, created_at) VALUES ('order.updated', 'migration', '{"batch": ${n}, "reason": "backfill"}', ` +
    `'2024-03-04 05:06:07'), ('order.checked', 'migration', '{"batch": ${n}, "reason": "verify"}', '2024-03-04 05:06:08')`,
  (n) => `UPDATE customers SET loyalty_points_${n} = loyalty_points_${n} + 10, updated_at = '2024-05-06 07:08:09' WHERE id IN (SELECT customer_id FROM orders_${n} WHERE amount > 100)`,
  (n) =>
    `SELECT o.id, o.amount, o.currency, o.status, c.name, c.email FROM orders_${n} o JOIN customers c ON c.id = o.customer_id ` +
    `WHERE o.created_at > '2024-01-01' AND c.country = 'DE' ORDER BY o.amount DESC LIMIT 20`,
];

/** A script of at most `bytes` bytes (ASCII) filled with whole statements, and its statement count. */
export function reviewScriptOf(engine: Engine, bytes: number): { script: string; statements: number } {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const statement = `${TEMPLATES[i % TEMPLATES.length]!(Math.floor(i / TEMPLATES.length), engine)};\n`;
    if (size + statement.length > bytes) break;
    parts.push(statement);
    size += statement.length;
  }
  return { script: parts.join(""), statements: parts.length };
}

/** The first `count` statements of the mix. */
export function reviewStatementsOf(engine: Engine, count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`${TEMPLATES[i % TEMPLATES.length]!(Math.floor(i / TEMPLATES.length), engine)};\n`);
  return parts.join("");
}
