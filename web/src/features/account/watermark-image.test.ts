import { describe, expect, it } from "vitest";
import { watermarkImage, watermarkLines } from "./watermark-image.ts";

const svgOf = (image: string) => decodeURIComponent(/^url\("data:image\/svg\+xml,(.*)"\)$/.exec(image)![1]!);

describe("watermark image", () => {
  it("names the user by title, then login id and e-mail address; the id alone when there is no other name", () => {
    expect(watermarkLines({ title: "Ann Lee", loginId: "ann", email: "ann@example.com" })).toEqual(["Ann Lee", "ann · ann@example.com"]);
    expect(watermarkLines({ title: "ann", loginId: "ann", email: "" })).toEqual(["ann"]);
  });

  it("is an SVG data URL whose text is the user's, escaped, so no markup of theirs enters the image", () => {
    const svg = svgOf(watermarkImage(['<a href="x">Eve</a> & co', "eve"]));
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    expect(doc.getElementsByTagName("parsererror")).toHaveLength(0);
    expect([...doc.getElementsByTagName("text")].map((t) => t.textContent)).toEqual(['<a href="x">Eve</a> & co', "eve"]);
    expect(doc.getElementsByTagName("a")).toHaveLength(0);
  });

  it("keeps characters that would end the URL or start its fragment inside the image", () => {
    const image = watermarkImage(['50% "off" #1 )']);
    expect(image.slice('url("'.length, -'")'.length)).not.toMatch(/["#]/);
    expect(svgOf(image)).toContain("50% &quot;off&quot; #1 )");
  });
});
