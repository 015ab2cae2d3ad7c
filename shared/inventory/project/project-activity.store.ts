// What keeps a project from being deleted (contract §9.1): its open issues
// and its rollouts still under way.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const activity = z.object({ open_issues: z.coerce.number(), running_rollouts: z.coerce.number() });

export async function projectActivity(db: CommonQueryMethods, projectId: string): Promise<{ openIssues: number; runningRollouts: number }> {
  const row = await db.one(sql.type(activity)`
    select (select count(*) from issue where project_id = ${projectId} and status = 'OPEN') as open_issues,
           (select count(*) from rollout where project_id = ${projectId} and state in ('RUNNING', 'PAUSED')) as running_rollouts`);
  return { openIssues: row.open_issues, runningRollouts: row.running_rollouts };
}
