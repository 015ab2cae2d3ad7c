// The watermark's tile: the signed-in user's name and id (or e-mail
// address), turned and faint, as an SVG data URL for a CSS background (the
// CSP allows data: images). The text is the user's own, so it is escaped
// as XML before it becomes part of the image.
import type { User } from "@gen/svc/v1/user_service_pb.js";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

function xmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** The lines the watermark shows: the name, then the login id and e-mail address. */
export function watermarkLines(user: Pick<User, "title" | "loginId" | "email">): string[] {
  const id = [user.loginId, user.email].filter(Boolean).join(" · ");
  return user.title && user.title !== user.loginId ? [user.title, id] : [id];
}

export const TILE = { width: 360, height: 220 };

/** A tile as `url("data:image/svg+xml,…")`; grey at low opacity reads on both themes. */
export function watermarkImage(lines: readonly string[]): string {
  const texts = lines
    .map((line, i) => `<text x="50%" y="${50 + (i - (lines.length - 1) / 2) * 20}%" text-anchor="middle">${xmlText(line)}</text>`)
    .join("");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${TILE.width}" height="${TILE.height}">` +
    `<g transform="rotate(-24 ${TILE.width / 2} ${TILE.height / 2})" fill="#808080" fill-opacity="0.16" font-family="sans-serif" font-size="15">` +
    `${texts}</g></svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}
