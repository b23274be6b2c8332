import { newRequestId } from "./request-id";

describe("newRequestId", () => {
  it("is req_ and 17 base62 characters, different every time, across refills of its random pool", () => {
    const ids = new Set(Array.from({ length: 5_000 }, () => newRequestId()));
    expect(ids.size).toBe(5_000);
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{17}$/);
  });

  it("uses the whole alphabet evenly", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4_000; i++) for (const c of newRequestId().slice(4)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 68,000 characters: about 1,097 each; a biased draw (e.g. byte % 62) would skew the first eight by ~25%.
    for (const n of counts.values()) expect(n).toBeGreaterThan(900);
    for (const n of counts.values()) expect(n).toBeLessThan(1_300);
  });
});
