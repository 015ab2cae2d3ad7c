// SQL on rollout and stage (contract §12.1, §12.2); a new rollout's tasks
// are written with it (task.store.ts tasksInsert).
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import type { RolloutRef } from "./rollout-names.ts";
import { type NewTask, TASK_STATES, tasksInsert, type TaskState } from "./task.store.ts";

export const ROLLOUT_STATES = ["NOT_STARTED", "RUNNING", "PAUSED", "DONE", "FAILED", "CANCELED"] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];
export const STAGE_STATES = ["NOT_STARTED", "RUNNING", "DONE", "FAILED", "SKIPPED", "CANCELED"] as const;
export type StageState = (typeof STAGE_STATES)[number];

const rolloutRow = z
  .object({
    project_id: z.string(),
    id: z.string(),
    plan_id: z.string(),
    issue_id: z.string().nullable(),
    title: z.string(),
    state: z.enum(ROLLOUT_STATES),
    creator: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    projectId: r.project_id,
    id: r.id,
    planId: r.plan_id,
    issueId: r.issue_id ?? undefined,
    title: r.title,
    state: r.state,
    creator: r.creator,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));

export type RolloutRow = z.infer<typeof rolloutRow>;

const columns = sql.fragment`project_id, id, plan_id, issue_id, title, state, creator, create_time, update_time`;

/**
 * The rollout with its stages (in the given order) and its tasks, in one
 * statement; undefined, and nothing written, when the plan has a rollout.
 */
export async function insertRollout(
  db: CommonQueryMethods,
  rollout: { projectId: string; planId: string; issueId: string | undefined; title: string; creator: string },
  stageIds: readonly string[],
  tasks: readonly NewTask[],
): Promise<RolloutRow | undefined> {
  return (
    (await db.maybeOne(sql.type(rolloutRow)`
      with inserted as (
        insert into rollout (project_id, plan_id, issue_id, title, creator)
        values (${rollout.projectId}, ${rollout.planId}, ${rollout.issueId ?? null}, ${rollout.title}, ${rollout.creator})
        on conflict (project_id, plan_id) do nothing
        returning ${columns}),
      stages as (
        insert into stage (project_id, rollout_id, id, position)
        select inserted.project_id, inserted.id, s.id, s.position - 1
        from inserted, unnest(${sql.array(stageIds, "text")}) with ordinality as s (id, position)),
      tasks as (${tasksInsert("inserted", tasks)})
      select * from inserted`)) ?? undefined
  );
}

export async function findRollout(db: CommonQueryMethods, ref: RolloutRef, forUpdate = false): Promise<RolloutRow | undefined> {
  return (
    (await db.maybeOne(sql.type(rolloutRow)`
      select ${columns} from rollout where project_id = ${ref.projectId} and id = ${ref.id}
      ${forUpdate ? sql.fragment`for update` : sql.fragment``}`)) ?? undefined
  );
}

export async function findRolloutByPlan(db: CommonQueryMethods, projectId: string, planId: string): Promise<RolloutRow | undefined> {
  return (
    (await db.maybeOne(sql.type(rolloutRow)`
      select ${columns} from rollout where project_id = ${projectId} and plan_id = ${planId}`)) ?? undefined
  );
}

export async function setRolloutState(db: CommonQueryMethods, ref: RolloutRef, state: RolloutState): Promise<void> {
  await db.query(sql.unsafe`
    update rollout set state = ${state}, update_time = now() where project_id = ${ref.projectId} and id = ${ref.id}`);
}

const rolloutKeyRow = z.object({ project_id: z.string(), id: z.string() });

/** The rollouts under way (RUNNING), for the reconciler's follow-up. */
export async function runningRollouts(db: CommonQueryMethods): Promise<RolloutRef[]> {
  const rows = await db.any(sql.type(rolloutKeyRow)`
    select project_id, id from rollout where state = 'RUNNING'`);
  return rows.map((r) => ({ projectId: r.project_id, id: r.id }));
}

/** A project's rollouts newest first, after the keyset position. */
export async function listRollouts(
  db: CommonQueryMethods,
  query: { projectId: string; afterId: number | undefined; limit: number },
): Promise<readonly RolloutRow[]> {
  const after = query.afterId === undefined ? sql.fragment`` : sql.fragment`and id::bigint < ${query.afterId}`;
  return db.any(sql.type(rolloutRow)`
    select ${columns} from rollout where project_id = ${query.projectId} ${after}
    order by id::bigint desc limit ${query.limit}`);
}

const stageRow = z
  .object({ id: z.string(), position: z.number(), state: z.enum(STAGE_STATES) })
  .transform((r) => ({ id: r.id, position: r.position, state: r.state }));

export type StageRow = z.infer<typeof stageRow>;

const progressRow = z.object({
  rollout: rolloutRow,
  stages: z.array(stageRow),
  counts: z.array(z.object({ stage_id: z.string(), state: z.enum(TASK_STATES), count: z.number() })),
});

/** What deciding a rollout's progress needs: the rollout, its stages in order, and how many tasks of each stage are in each state. */
export interface RolloutProgress {
  rollout: RolloutRow;
  stages: StageRow[];
  counts: Map<string, Map<TaskState, number>>;
}

/** The rollout's progress in one statement (the follow-up after each settlement reads it); undefined when the rollout does not exist. */
export async function findRolloutProgress(db: CommonQueryMethods, ref: RolloutRef): Promise<RolloutProgress | undefined> {
  const row = await db.maybeOne(sql.prepared("rollout.progress", progressRow)`
    select row_to_json(r) as rollout,
      coalesce((select json_agg(json_build_object('id', s.id, 'position', s.position, 'state', s.state) order by s.position)
                from stage s where s.project_id = r.project_id and s.rollout_id = r.id), '[]') as stages,
      coalesce((select json_agg(json_build_object('stage_id', c.stage_id, 'state', c.state, 'count', c.count))
                from (select t.stage_id, t.state, count(*) as count from task t
                      where t.project_id = r.project_id and t.rollout_id = r.id group by t.stage_id, t.state) c), '[]') as counts
    from rollout r where r.project_id = ${ref.projectId} and r.id = ${ref.id}`);
  if (!row) return undefined;
  const counts = new Map<string, Map<TaskState, number>>();
  for (const count of row.counts) {
    const stage = counts.get(count.stage_id) ?? new Map<TaskState, number>();
    stage.set(count.state, count.count);
    counts.set(count.stage_id, stage);
  }
  return { rollout: row.rollout, stages: row.stages, counts };
}

/** The rollout's stages in order. */
export async function findStages(db: CommonQueryMethods, ref: RolloutRef): Promise<StageRow[]> {
  return [
    ...(await db.any(sql.type(stageRow)`
      select id, position, state from stage where project_id = ${ref.projectId} and rollout_id = ${ref.id} order by position`)),
  ];
}

export async function setStageState(db: CommonQueryMethods, ref: RolloutRef, stageId: string, state: StageState): Promise<void> {
  await db.query(sql.unsafe`
    update stage set state = ${state}, update_time = now()
    where project_id = ${ref.projectId} and rollout_id = ${ref.id} and id = ${stageId}`);
}
