// CPU seconds one PostgreSQL server has used: its postmaster (found as the
// parent of the server's checkpointer), the ended backends it reaped, and its
// live processes. Other servers on the machine do not count. Needs /proc and
// the right to read the server's processes; undefined otherwise.
import pg from "pg";
import { childPids, parentPid, processCpuSeconds, processTreeCpuSeconds } from "./cpu.ts";

export type CpuReader = () => number;

export async function postgresCpuReader(databaseUrl: string): Promise<CpuReader | undefined> {
  const postmaster = await postmasterPid(databaseUrl);
  if (postmaster === undefined || processTreeCpuSeconds(postmaster) === undefined) return undefined;
  return () => (processTreeCpuSeconds(postmaster) ?? 0) + childPids(postmaster).reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);
}

/** The server's postmaster, found as the parent of its checkpointer; undefined when /proc does not tell. */
export async function postmasterPid(databaseUrl: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("select pid from pg_stat_activity where backend_type = 'checkpointer'");
    return rows[0] ? parentPid(rows[0].pid) : undefined;
  } finally {
    await client.end();
  }
}
