// Data for the audit-log figure: a million audit records written straight
// into the bench database with one INSERT … SELECT over generate_series, a
// read-only auditor to search and export them with, and the columns and order
// the store reads them in (for the bare baselines).
import pg from "pg";
import { boundedJsonText, PAYLOAD_CHARS } from "../../shared/governance/audit/audit-bounds.ts";
import { AUDIT_READ_COLUMNS } from "../../shared/governance/audit/audit-search.store.ts";
import { WORKSPACE } from "../../shared/identity/iam/authorize.ts";
import { lockPolicy, replacePolicy } from "../../shared/identity/iam/iam-policy.store.ts";
import { userMember } from "../../shared/identity/iam/members.ts";
import { createDb } from "../../shared/platform/db.ts";
import { withTransaction } from "../../shared/platform/transaction.ts";
import type { Logger } from "../../shared/platform/logger.ts";
import { hashPassword } from "../../shared/identity/user/password-hash.ts";
import { findUserByLoginId, insertUser } from "../../shared/identity/user/user.store.ts";

export const AUDITOR = { loginId: "bench-auditor", password: "Bench-Auditor-Pass-7" };

/** The columns shared/audit/audit-search.store.ts reads, and its default order (keep in step with findAuditRecords). */
export const AUDIT_COLUMNS = AUDIT_READ_COLUMNS.sql;
export const NEWEST_FIRST = "order by create_time desc, id desc";

/** Every CUT_SCRIPT_EVERY-th record carries a release with a 1 MiB script, and every AT_BOUND_EVERY-th one a release of several files as large as the bounds keep. */
export const CUT_SCRIPT_EVERY = 25;
export const AT_BOUND_EVERY = 100;
/** Replaced by the record's number in the large payloads, so that no two are alike. */
const NUMBER = "@@";

/**
 * Records spread over the 90 days up to now, newest first by id: 1000 users
 * (user0 … user999) plus `system`, 45 actions, resources in 211 projects, a
 * request and response of a few hundred bytes each — except the large ones
 * (CUT_SCRIPT_EVERY, AT_BOUND_EVERY), whose request and response are stored
 * as the audit bounds store them (decision 0072).
 */
export async function seedAuditRecords(url: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `insert into audit_log (create_time, actor, actor_ip, user_agent, action, method, resource, severity, status_code,
                              status_message, latency_us, correlation_id, request, response, detail)
       select now() - (g * (interval '90 days' / $1::int)),
              case when g % 50 = 0 then 'system' else 'users/user' || (g % 1000) end,
              '10.0.' || (g % 256) || '.' || (g % 251),
              'Mozilla/5.0 (X11; Linux x86_64) bench/' || (g % 7),
              'bb.' || (array['issues','plans','rollouts','databases','instances','projects','users','settings','roles'])[1 + g % 9]
                    || '.' || (array['create','update','delete','approve','get'])[1 + (g / 9) % 5],
              '/svc.v1.Service' || (g % 9) || '/Method' || ((g / 9) % 5),
              'projects/p' || (g % 211) || '/issues/' || (g % 4999),
              case when g % 97 = 0 then 'WARNING' when g % 991 = 0 then 'ERROR' else 'INFO' end,
              case when g % 13 = 0 then 'permission_denied' else 'ok' end,
              case when g % 13 = 0 then 'permission bb.issues.update required on projects/p' || (g % 211) else '' end,
              500 + g % 20000,
              md5(g::text),
              coalesce(large.payload, '{"name":"projects/p' || (g % 211) || '/issues/' || (g % 4999) || '","title":"Change ' || g
                || '","description":"' || repeat('lorem ipsum ', 10) || '","password":"***"}'),
              coalesce(large.payload, '{"name":"projects/p' || (g % 211) || '/issues/' || (g % 4999) || '","status":"OPEN"}'),
              jsonb_build_object('index', g, 'note', 'bench')
       from generate_series(1, $1::int) g,
            lateral (select case when g % $2::int = 0 then replace($3, '${NUMBER}', g::text)
                                 when g % $4::int = 0 then replace($5, '${NUMBER}', g::text) end as payload) large`,
      [count, AT_BOUND_EVERY, releaseAtBound(), CUT_SCRIPT_EVERY, releaseWithScript(1 << 20)],
    );
    // A log of a million records has long been vacuumed: its rows' hint bits
    // set and its pages all-visible. Left to the first read, that work fell
    // on whichever export ran first (or on autovacuum, when it came first),
    // and the CSV row moved 40,000–64,000 records/s with the cursor steady.
    await client.query("vacuum (analyze) audit_log");
  } finally {
    await client.end();
  }
}

/** A release with one script of `bytes`, as its record stores it: the script cut to its head, size and hash. */
function releaseWithScript(bytes: number): string {
  return boundedJsonText(JSON.stringify(release([script(bytes, 0)])));
}

/** A release of as many scripts of 1.9 KB as the bounds keep whole: the largest payload a record stores. */
function releaseAtBound(): string {
  const scripts = [script(1900, 0)];
  // Room for the record numbers that replace the placeholders.
  while (JSON.stringify(release([...scripts, script(1900, scripts.length)])).length < PAYLOAD_CHARS - 100) scripts.push(script(1900, scripts.length));
  const json = JSON.stringify(release(scripts));
  if (boundedJsonText(json) !== json) throw new Error("the release at the bound is not kept whole");
  return json;
}

function release(scripts: string[]) {
  return {
    parent: `projects/p${NUMBER}`,
    release: { title: `Release ${NUMBER}`, files: scripts.map((statement, i) => ({ path: `2026/V${NUMBER}_${i}__orders.sql`, statement })) },
  };
}

/** SQL of about `bytes` characters, each line different; scripts of another `part` hold other lines. */
function script(bytes: number, part: number): string {
  const lines: string[] = [];
  for (let i = part * 1_000_000, size = 0; size < bytes; i++) {
    const line = `insert into orders (id, customer, note) values (${i}, 'customer-${(i * 7919) % 100_000}', 'order line ${i}');\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join("");
}

/** The auditor user, bound to roles/readOnlyAuditor, through the store functions. */
export async function createAuditor(url: string, logger: Logger): Promise<void> {
  const db = await createDb(url, logger, { maxPoolSize: 1 });
  try {
    await withTransaction(db, async (tx) => {
      if (await findUserByLoginId(tx, AUDITOR.loginId)) return;
      await insertUser(tx, {
        loginId: AUDITOR.loginId,
        email: "",
        title: "Bench auditor",
        type: "END_USER",
        source: "LOCAL",
        passwordHash: await hashPassword(AUDITOR.password),
        requireResetPassword: false,
      });
      const policy = await lockPolicy(tx, WORKSPACE);
      await replacePolicy(tx, WORKSPACE, [...policy.bindings, { role: "roles/readOnlyAuditor", members: [userMember(AUDITOR.loginId)] }], "system");
    });
  } finally {
    await db.end();
  }
}
