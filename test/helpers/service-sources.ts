// The service's own TypeScript sources (shared/, api/, worker/; not the
// generated code, not tests), for tests that check a rule across the code.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

const ROOTS = ["shared", "api", "worker"];

export interface SourceFile {
  /** Relative to the repository, e.g. shared/platform/db.ts. */
  path: string;
  text: string;
}

export async function serviceSources(): Promise<SourceFile[]> {
  const root = new URL("../..", import.meta.url).pathname;
  const files: SourceFile[] = [];
  for (const dir of ROOTS) {
    for (const file of await sourceFiles(join(root, dir))) files.push({ path: file.slice(root.length), text: await readFile(file, "utf8") });
  }
  return files;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "gen") files.push(...(await sourceFiles(path)));
    else if (entry.isFile() && path.endsWith(".ts") && !path.endsWith(".test.ts")) files.push(path);
  }
  return files;
}
