import { codeRose, successDropped } from "./job-stats-trends";

describe("successDropped", () => {
  it("flags a fall of ten points or more that is beyond noise, over enough jobs on both sides", () => {
    expect(successDropped({ jobs: 40, succeeded: 20 }, { jobs: 100, succeeded: 90 })).toBe(true);
    // Too few jobs in the last day, or before it.
    expect(successDropped({ jobs: 19, succeeded: 0 }, { jobs: 100, succeeded: 100 })).toBe(false);
    expect(successDropped({ jobs: 100, succeeded: 0 }, { jobs: 19, succeeded: 19 })).toBe(false);
    // A small fall, however many jobs.
    expect(successDropped({ jobs: 100_000, succeeded: 91_000 }, { jobs: 700_000, succeeded: 665_000 })).toBe(false);
    // Ten points over few jobs is within what chance does (z < 3).
    expect(successDropped({ jobs: 20, succeeded: 16 }, { jobs: 20, succeeded: 18 })).toBe(false);
    expect(successDropped({ jobs: 20, succeeded: 20 }, { jobs: 20, succeeded: 20 })).toBe(false);
  });
});

describe("codeRose", () => {
  it("flags a code at least twice its daily average and well above it, with a minimum count", () => {
    expect(codeRose(10, 0)).toBe(true);
    expect(codeRose(9, 0)).toBe(false);
    // 70 in the week before: 10 a day. 20 is twice that and three deviations up.
    expect(codeRose(20, 70)).toBe(true);
    expect(codeRose(19, 70)).toBe(false);
    expect(codeRose(2000, 7 * 1500)).toBe(false);
    expect(codeRose(3200, 7 * 1500)).toBe(true);
  });
});
