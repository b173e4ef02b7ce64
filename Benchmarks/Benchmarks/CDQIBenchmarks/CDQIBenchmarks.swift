import Benchmark
import Foundation
import InventoryBench

// The workloads W1–W7 under ordo-one/benchmark (`swift package benchmark` in Benchmarks/), at the
// `--quick` sizes so that a run stays short; `bin/bench` prints the full-size summary with ratios.
// Each contender is its own benchmark, named "W2 fetch 2k · ours", "… · raw", "… · grdbCodable", ….

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(5), maxIterations: 20)
    let suite: BenchmarkSuite
    let workloads: [Workload]
    do {
        suite = try BenchmarkSuite(sizes: .quick)
        workloads = try suite.workloads()
    } catch {
        print("CDQIBenchmarks: cannot set the benchmarks up: \(error)")
        return
    }
    for workload in workloads {
        for contender in workload.contenders {
            Benchmark("\(workload.id) \(workload.label) · \(contender.kind.rawValue)") { benchmark in
                _ = suite
                for _ in benchmark.scaledIterations {
                    try contender.prepare()
                    benchmark.startMeasurement()
                    blackHole(try contender.run())
                    benchmark.stopMeasurement()
                }
            }
        }
    }
}
