// SQL on iam_policy: the binding set of each scope.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const binding = z.object({
  role: z.string(),
  members: z.array(z.string()),
  condition: z.object({ expression: z.string(), title: z.string(), description: z.string() }).optional(),
});

export type StoredBinding = z.infer<typeof binding>;

const policyRow = z
  .object({ scope: z.string(), bindings: z.array(binding), etag: z.string(), update_time: z.coerce.date() })
  .transform((r) => ({ scope: r.scope, bindings: r.bindings, etag: r.etag, updateTime: r.update_time }));

export type StoredPolicy = z.infer<typeof policyRow>;

/** The policies of the given scopes that exist; named, as every permission check reads it. */
export async function findPolicies(db: CommonQueryMethods, scopes: readonly string[]): Promise<StoredPolicy[]> {
  return [...(await db.any(sql.prepared("iam_policy.find_by_scopes", policyRow)`
    select scope, bindings, etag, update_time from iam_policy where scope = any(${sql.array(scopes, "text")})`))];
}

/** The policy of one scope, locked until the transaction ends (writes take turns). */
export async function lockPolicy(db: CommonQueryMethods, scope: string): Promise<StoredPolicy> {
  await db.query(sql.unsafe`insert into iam_policy (scope) values (${scope}) on conflict (scope) do nothing`);
  return db.one(sql.type(policyRow)`select scope, bindings, etag, update_time from iam_policy where scope = ${scope} for update`);
}

export async function replacePolicy(db: CommonQueryMethods, scope: string, bindings: readonly StoredBinding[], updater: string): Promise<StoredPolicy> {
  return db.one(sql.type(policyRow)`
    update iam_policy set bindings = ${sql.jsonb(bindings as never)}, updater = ${updater}, update_time = now(),
                          etag = md5(random()::text || clock_timestamp()::text)
    where scope = ${scope}
    returning scope, bindings, etag, update_time`);
}

const scopeRow = z.object({ scope: z.string() });

/**
 * The scopes with a binding that contains `pattern` (jsonb containment):
 * {role} finds the policies binding a role, {members: [m]} those naming a member.
 */
export async function scopesWithBinding(db: CommonQueryMethods, pattern: { role: string } | { members: [string] }): Promise<string[]> {
  return [...(await db.anyFirst(sql.type(scopeRow)`
    select scope from iam_policy where bindings @> ${sql.jsonb([pattern])} order by scope`))];
}

/** Every project's policy (scopes projects/<id>). */
export async function findProjectPolicies(db: CommonQueryMethods): Promise<StoredPolicy[]> {
  return [...(await db.any(sql.type(policyRow)`
    select scope, bindings, etag, update_time from iam_policy where scope like 'projects/%'`))];
}
