// Whether the server is MariaDB (which MySQL targets include): the two differ
// in a few catalog columns, defaults and timeout variables.
import type { Connection } from "mysql2/promise";

export async function serverVersion(connection: Connection): Promise<string> {
  const [rows] = await connection.query("select version() as version");
  return String((rows as { version: string }[])[0]!.version);
}

export async function isMariaDb(connection: Connection): Promise<boolean> {
  return /mariadb/i.test(await serverVersion(connection));
}
