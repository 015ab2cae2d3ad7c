// The product version (package.json) and, when run from a git checkout, the commit.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

export const version: string = (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { version: string }).version;

export const gitCommit: string = readGitCommit();

function readGitCommit(): string {
  try {
    const head = readFileSync(`${root}.git/HEAD`, "utf8").trim();
    if (!head.startsWith("ref: ")) return head;
    const ref = head.slice(5);
    if (existsSync(`${root}.git/${ref}`)) return readFileSync(`${root}.git/${ref}`, "utf8").trim();
    const packed = existsSync(`${root}.git/packed-refs`) ? readFileSync(`${root}.git/packed-refs`, "utf8") : "";
    return packed.split("\n").find((line) => line.endsWith(` ${ref}`))?.split(" ")[0] ?? "";
  } catch {
    return "";
  }
}
