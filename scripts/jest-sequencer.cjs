// Orders test files slowest first and splits a project into balanced shards (`jest --shard=i/n`), by the
// seconds scripts/test-weights.json gives each file (a measured run's, rounded; a file it does not name
// counts 5 s). Slowest first keeps a long file from starting last; balanced shards finish together.
// After a file's time changes a lot, refresh the weights from the table `npm test` prints.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;
const weights = require("./test-weights.json");

const DEFAULT_SECONDS = 5;

class WeightedSequencer extends Sequencer {
  weight(test) {
    return weights[path.relative(path.join(__dirname, ".."), test.path)] ?? DEFAULT_SECONDS;
  }

  bySlowest(tests) {
    return [...tests].sort((a, b) => this.weight(b) - this.weight(a) || a.path.localeCompare(b.path));
  }

  shard(tests, { shardIndex, shardCount }) {
    // Longest processing time first: each file goes to the shard with the least work so far.
    const shards = Array.from({ length: shardCount }, () => ({ seconds: 0, tests: [] }));
    for (const test of this.bySlowest(tests)) {
      const lightest = shards.reduce((min, s) => (s.seconds < min.seconds ? s : min));
      lightest.tests.push(test);
      lightest.seconds += this.weight(test);
    }
    return shards[shardIndex - 1].tests;
  }

  sort(tests) {
    return this.bySlowest(tests);
  }
}

module.exports = WeightedSequencer;
