import { HEAP_GROWING_PERCENT, heapGrowthFlag } from "./heap-growth";

describe("the worker's heap growth", () => {
  it("is bounded to 50% past the live heap unless the command line chose its own", () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(["--enable-source-maps", "-r", "./scripts/swc-register.cjs"])).toBe(
      "--heap-growing-percent=50",
    );
    expect(heapGrowthFlag(["--heap-growing-percent=20"])).toBeNull();
    expect(heapGrowthFlag(["--heap_growing_percent=20"])).toBeNull();
    expect(heapGrowthFlag(["--heap-growing-percent", "20"])).toBeNull();
    expect(heapGrowthFlag(["-heap-growing-percent=20"])).toBeNull();
    expect(heapGrowthFlag(["--heap-growing-percentage=20"])).toBe("--heap-growing-percent=50");
  });
});
