// Release file versions (contract §13.1): dot-separated parts, compared part
// by part, numerically when both parts are numbers (1.2.10 > 1.2.9), as text
// otherwise; a version that runs out of parts first is the lower one (1.2 <
// 1.2.0). Versions that compare equal (1.2 and 1.02) are the same version.
const VERSION = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
const MAX_VERSION_LENGTH = 64;
const NUMBER = /^[0-9]+$/;

export function isVersion(text: string): boolean {
  return text.length <= MAX_VERSION_LENGTH && VERSION.test(text);
}

/** Negative when a comes before b, positive when after, 0 for the same version. */
export function compareVersions(a: string, b: string): number {
  const left = a.split(".");
  const right = b.split(".");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = comparePart(left[i]!, right[i]!);
    if (order !== 0) return order;
  }
  return Math.sign(left.length - right.length);
}

function comparePart(a: string, b: string): number {
  if (NUMBER.test(a) && NUMBER.test(b)) {
    const x = a.replace(/^0+(?=.)/, "");
    const y = b.replace(/^0+(?=.)/, "");
    if (x.length !== y.length) return Math.sign(x.length - y.length);
    return compareText(x, y);
  }
  return compareText(a, b);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
