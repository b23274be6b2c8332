import { isDatabaseUnreachable, whileUnreachable } from "./while-unreachable";

describe("whileUnreachable", () => {
  it("runs again while the database cannot be reached, and returns the first answer", async () => {
    let calls = 0;
    const answer = await whileUnreachable(
      async () => {
        if (++calls < 3)
          throw Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: "P1001" });
        return "row";
      },
      30_000,
      10,
    );
    expect({ answer, calls }).toEqual({ answer: "row", calls: 3 });
  });

  it("throws any other error at once, and the last unreachable one past its time", async () => {
    let calls = 0;
    await expect(
      whileUnreachable(
        async () => {
          calls++;
          throw Object.assign(new Error("Unique constraint failed"), { code: "P2002" });
        },
        5000,
        10,
      ),
    ).rejects.toMatchObject({ code: "P2002" });
    expect(calls).toBe(1);
    await expect(
      whileUnreachable(
        async () => {
          throw new Error(
            "Database error. Code: `57P03`. Message: `the database system is not yet accepting connections`",
          );
        },
        50,
        10,
      ),
    ).rejects.toThrow(/57P03/);
  });

  it("tells a server that is away from other database errors", () => {
    expect(isDatabaseUnreachable(new Error("connect ECONNREFUSED 127.0.0.1:5432"))).toBe(true);
    expect(isDatabaseUnreachable(new Error("Record to update not found."))).toBe(false);
    expect(isDatabaseUnreachable("P1001")).toBe(false);
  });
});
