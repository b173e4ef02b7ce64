import Foundation

/// Aggregates over collections (§3.8): shared by the collection operators and the functions
/// `sum:`, `count:`, `min:`, `max:`, `average:`, `median:`, `mode:`, `stddev:`.
enum Aggregates {
    struct Failure: Error {
        enum Reason { case notNumeric, overflow, unordered }
        var reason: Reason
    }

    static func numbers(_ values: [StoredValue]) throws(Failure) -> [Number] {
        var result: [Number] = []
        result.reserveCapacity(values.count)
        for value in values where !value.isNull {
            guard let n = Number(value) else { throw Failure(reason: .notNumeric) }
            result.append(n)
        }
        return result
    }

    static func count(_ values: [StoredValue]) -> StoredValue {
        .integer(Int64(values.reduce(0) { $0 + ($1.isNull ? 0 : 1) }))
    }

    static func sum(_ values: [StoredValue]) throws(Failure) -> StoredValue {
        let ns = try numbers(values)
        var total: Int64 = 0
        var doubles: [Double] = []
        var allIntegers = true
        for n in ns {
            switch n {
            case .integer(let i):
                if allIntegers {
                    let (s, overflow) = total.addingReportingOverflow(i)
                    if overflow { throw Failure(reason: .overflow) }
                    total = s
                }
                doubles.append(Double(i))
            case .double(let d):
                allIntegers = false
                doubles.append(d)
            }
        }
        if allIntegers { return .integer(total) }
        return Number.double(ExactSum.of(doubles)).stored
    }

    static func average(_ values: [StoredValue]) throws(Failure) -> StoredValue {
        let ns = try numbers(values)
        if ns.isEmpty { return .null }
        return Number.double(ExactSum.of(ns.map(\.doubleValue)) / Double(ns.count)).stored
    }

    static func extreme(_ values: [StoredValue], wantMax: Bool) throws(Failure) -> StoredValue {
        var best: StoredValue?
        for value in values where !value.isNull {
            guard let current = best else {
                best = value
                continue
            }
            guard let c = ValueComparison.order(.scalar(value), .scalar(current), options: []) else {
                throw Failure(reason: .unordered)
            }
            if (wantMax && c > 0) || (!wantMax && c < 0) { best = value }
        }
        return best ?? .null
    }

    static func median(_ values: [StoredValue]) throws(Failure) -> StoredValue {
        let ns = try numbers(values).sorted { Number.compare($0, $1) ?? 0 < 0 }
        if ns.isEmpty { return .null }
        if ns.count % 2 == 1 { return ns[ns.count / 2].stored }
        return Number.double((ns[ns.count / 2 - 1].doubleValue + ns[ns.count / 2].doubleValue) / 2).stored
    }

    static func mode(_ values: [StoredValue]) -> [StoredValue] {
        var distinct: [(StoredValue, Int)] = []
        for value in values where !value.isNull {
            if let i = distinct.firstIndex(where: { ValueComparison.scalarEqual($0.0, value, options: []) }) {
                distinct[i].1 += 1
            } else {
                distinct.append((value, 1))
            }
        }
        let top = distinct.map(\.1).max() ?? 0
        return distinct.filter { $0.1 == top }.map(\.0)
    }

    static func standardDeviation(_ values: [StoredValue]) throws(Failure) -> StoredValue {
        let ds = try numbers(values).map(\.doubleValue)
        if ds.isEmpty { return .null }
        let mean = ExactSum.of(ds) / Double(ds.count)
        let variance = ExactSum.of(ds.map { ($0 - mean) * ($0 - mean) }) / Double(ds.count)
        return Number.double(variance.squareRoot()).stored
    }
}
